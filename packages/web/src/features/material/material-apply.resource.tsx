import { ApartmentOutlined, AuditOutlined } from '@ant-design/icons';
import {
  logisticsTypes,
  materialApplyCreate,
  materialApplyStatuses,
  type EndpointDef,
  type LogisticsType,
  type MaterialApplyDto,
  type MaterialApplyStatus,
  materialApplyApi,
} from '@csms/contract';
import { Typography } from 'antd';
import { stationOptions } from '../../shared/options/station-point-options';
import { defineResource, type ColumnDef } from '../../shared/resource/types';
import { ApplyStatusTag, LinesField, WorkOrderField } from './apply-inputs';
import { LogisticsText } from './logistics-text';

export interface ApplyActions {
  approve: (row: MaterialApplyDto) => void;
  flow: (row: MaterialApplyDto) => void;
}

/** The permission the endpoint's contract requires. */
export const permiOf = (ep: EndpointDef): string[] => (typeof ep.access === 'object' && 'permi' in ep.access ? [ep.access.permi] : []);

const options = <T extends string>(values: readonly T[], vocabulary: string) =>
  values.map((v) => ({ value: v, label: `enums.${vocabulary}.${v}` }));

export const applyColumns: ColumnDef<MaterialApplyDto>[] = [
  { key: 'taskId', width: 130, fixed: 'left', sorter: true },
  { key: 'status', width: 120, render: (v) => <ApplyStatusTag status={v as MaterialApplyStatus} /> },
  { key: 'workOrderTaskId', width: 130 },
  { key: 'summary', width: 240, ellipsis: true },
  { key: 'stationName', width: 150, ellipsis: true },
  { key: 'serialNumber', width: 150 },
  { key: 'receiver', width: 110 },
  { key: 'receiverPhone', width: 140 },
  { key: 'logisticsType', width: 110, render: (v) => <LogisticsText type={v as LogisticsType} /> },
  { key: 'deliveryAddress', width: 200, ellipsis: true },
  { key: 'applicantName', width: 110 },
  { key: 'approverName', width: 110 },
  { key: 'auditOpinion', width: 200, ellipsis: true },
  { key: 'decideTime', kind: 'datetime', width: 170 },
  { key: 'note', width: 160, ellipsis: true, defaultHidden: true },
  { key: 'createTime', kind: 'datetime', width: 170, sorter: true },
  { key: 'providerName', width: 140, defaultHidden: true },
];

/**
 * Apply orders for spare parts (spec §3 "Material apply order"; DESIGN.md §10 applied → agreed | not
 * agreed): the kit's add dialog is the application (a work order, parts lines, receiver and delivery),
 * the approve dialog agrees or not, the flow chart shows the steps.
 */
export function materialApplyResource(actions: ApplyActions) {
  return defineResource({
    name: 'materialApply',
    api: { list: materialApplyApi.list, add: materialApplyApi.add, export: materialApplyApi.export },
    exportSource: 'materialApply',
    formSchema: { create: materialApplyCreate },
    formWidth: 760,
    texts: { createTitle: 'materialApply.createTitle', saved: 'materialApply.created' },
    columns: applyColumns,
    search: [
      { key: 'taskId', kind: 'text' },
      { key: 'workOrderTaskId', kind: 'text' },
      { key: 'partsNumber', kind: 'text' },
      { key: 'status', kind: 'select', options: options(materialApplyStatuses, 'materialApplyStatus') },
      { key: 'logisticsType', kind: 'select', options: options(logisticsTypes, 'logisticsType') },
      { key: 'stationId', kind: 'select', remote: stationOptions },
      { key: 'createTime', kind: 'dateRange', keys: ['startTime', 'endTime'], zoneDays: true },
    ],
    initialValues: () => ({ lines: [{ count: 1 }], logisticsType: 'express' }),
    form: [
      { key: 'workOrderTaskId', kind: 'custom', span: 24, render: (ctx) => <WorkOrderField {...ctx} /> },
      {
        key: 'lines',
        kind: 'custom',
        span: 24,
        required: true,
        extra: () => 'materialApply.linesHint',
        render: (ctx) => <LinesField {...ctx} />,
      },
      { key: 'receiver', kind: 'text', props: { maxLength: 50 } },
      { key: 'receiverPhone', kind: 'text', props: { maxLength: 30 } },
      { key: 'logisticsType', kind: 'select', options: options(logisticsTypes, 'logisticsType'), props: { allowClear: false } },
      { key: 'deliveryAddress', kind: 'textarea', span: 24, props: { rows: 2, maxLength: 255 } },
      { key: 'note', kind: 'textarea', span: 24, props: { rows: 2, maxLength: 500 } },
    ],
    rowActions: [
      {
        key: 'approve',
        label: 'materialApply.approve',
        icon: <AuditOutlined />,
        permi: permiOf(materialApplyApi.confirm),
        hidden: (row) => row.status !== 'applied',
        onClick: (row) => actions.approve(row),
      },
      {
        key: 'flow',
        label: 'materialApply.flowChart',
        icon: <ApartmentOutlined />,
        permi: permiOf(materialApplyApi.flowChart),
        onClick: (row) => actions.flow(row),
      },
    ],
  });
}

/** The apply order as one line: its work order, station and point. */
export function ApplySummary({ row, t }: { row: MaterialApplyDto; t: (k: string, p?: Record<string, unknown>) => string }) {
  return (
    <Typography.Paragraph type="secondary" data-testid="apply-summary">
      {t('materialApply.summary', { workOrder: row.workOrderTaskId, station: row.stationName, serialNumber: row.serialNumber })}
    </Typography.Paragraph>
  );
}
