import { AuditOutlined, CloseCircleOutlined, ProfileOutlined } from '@ant-design/icons';
import { applyStatuses, type ApplyDto, type ApplyStatus, type EndpointDef, applyApi } from '@csms/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { defineResource, type ColumnDef } from '../../shared/resource/types';

/** The permission the endpoint's contract requires. */
export const permiOf = (ep: EndpointDef): string[] => (typeof ep.access === 'object' && 'permi' in ep.access ? [ep.access.permi] : []);

/** Where an application's information page is. */
export const infoPath = (id: number) => `/apply/applyRecord/info/${id}`;

const COLOR: Record<ApplyStatus, string> = { pending: 'processing', approved: 'success', rejected: 'error' };

export function ApplyStatusTag({ status }: { status: ApplyStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOR[status]} data-testid="apply-status">
      {t(`enums.applyStatus.${status}`)}
    </Tag>
  );
}

export const applyColumns: ColumnDef<ApplyDto>[] = [
  { key: 'referenceNo', width: 130, fixed: 'left' },
  { key: 'status', width: 110, render: (v) => <ApplyStatusTag status={v as ApplyStatus} /> },
  { key: 'companyName', width: 200, ellipsis: true },
  { key: 'contact', width: 110 },
  { key: 'phone', width: 140 },
  { key: 'email', width: 200, ellipsis: true },
  { key: 'licenseNumber', width: 190 },
  { key: 'expectedPoints', width: 120 },
  { key: 'expectedStations', width: 120 },
  { key: 'providerName', width: 160, ellipsis: true },
  { key: 'reviewerName', width: 110 },
  { key: 'rejectReason', width: 200, ellipsis: true, defaultHidden: true },
  { key: 'createTime', kind: 'datetime', width: 170 },
  { key: 'reviewTime', kind: 'datetime', width: 170 },
];

export interface ReviewActions {
  approve: (row: ApplyDto) => void;
  reject: (row: ApplyDto) => void;
}

/**
 * Applicant management (spec §2 `/apply/applyRecord`): the applications, searched by reference,
 * company or contact and status; each opens its information page, a pending one is approved or rejected.
 */
export function applyResource(actions: ReviewActions) {
  return defineResource({
    name: 'apply',
    api: { list: applyApi.list, get: applyApi.get },
    columns: applyColumns,
    hideActions: ['detail', 'edit', 'remove'],
    search: [
      { key: 'referenceNo', kind: 'text' },
      { key: 'text', kind: 'text' },
      { key: 'status', kind: 'select', options: applyStatuses.map((s) => ({ value: s, label: `enums.applyStatus.${s}` })) },
      { key: 'createTime', kind: 'dateRange', keys: ['startTime', 'endTime'] },
    ],
    rowActions: [
      {
        key: 'info',
        label: 'apply.info',
        icon: <ProfileOutlined />,
        permi: permiOf(applyApi.get),
        onClick: (row, ctx) => ctx.navigate(infoPath(row.id)),
      },
      {
        key: 'approve',
        label: 'apply.approve',
        icon: <AuditOutlined />,
        permi: permiOf(applyApi.approve),
        hidden: (row) => row.status !== 'pending',
        onClick: (row) => actions.approve(row),
      },
      {
        key: 'reject',
        label: 'apply.reject',
        icon: <CloseCircleOutlined />,
        danger: true,
        permi: permiOf(applyApi.reject),
        hidden: (row) => row.status !== 'pending',
        onClick: (row) => actions.reject(row),
      },
    ],
  });
}
