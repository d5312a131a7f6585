import type { ProfileSendResult, ProfileTargetDto, ProfileTargetStatus } from '@csms/contract';
import { Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/resource/cells';

const color: Partial<Record<ProfileTargetStatus, string>> = {
  accepted: 'success',
  scheduled: 'processing',
  rebootRequired: 'warning',
  rejected: 'error',
  failed: 'error',
  faulted: 'error',
  notImplemented: 'warning',
  notSupported: 'warning',
  noTransaction: 'warning',
  cleared: 'default',
  notSent: 'default',
  offline: 'default',
};

/** A connector number; 0 is the point as a whole. */
export function ConnectorNo({ n }: { n: number }) {
  const { t } = useTranslation();
  return <>{n === 0 ? t('chargingProfile.connectorPoint') : n}</>;
}

export function TargetStatus({ status }: { status: ProfileTargetStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={color[status] ?? 'default'} data-status={status}>
      {t(`enums.profileTargetStatus.${status}`)}
    </Tag>
  );
}

/** Each point and connector of a profile with the charger's last answer. */
export function TargetsTable({ targets }: { targets: ProfileTargetDto[] }) {
  const { t } = useTranslation();
  const f = (key: string) => t(`fields.chargingProfile.${key}`);
  return (
    <Table<ProfileTargetDto>
      size="small"
      pagination={false}
      rowKey={(r) => `${r.serialNumber}:${r.connectorNo}`}
      dataSource={targets}
      data-testid="profile-targets"
      columns={[
        { key: 'serialNumber', dataIndex: 'serialNumber', title: f('serialNumber') },
        { key: 'pointName', dataIndex: 'pointName', title: f('pointName') },
        { key: 'connectorNo', dataIndex: 'connectorNo', title: f('connectorNo'), render: (n: number) => <ConnectorNo n={n} /> },
        { key: 'status', dataIndex: 'status', title: f('status'), render: (s: ProfileTargetStatus) => <TargetStatus status={s} /> },
        {
          key: 'chargerStatus',
          dataIndex: 'chargerStatus',
          title: f('chargerStatus'),
          render: (v: string | null) => (v ? <Typography.Text code>{v}</Typography.Text> : null),
        },
        { key: 'transactionId', dataIndex: 'transactionId', title: f('transactionId') },
        { key: 'sentTime', dataIndex: 'sentTime', title: f('sentTime'), render: (v: string | null) => (v ? formatDateTime(v) : null) },
      ]}
    />
  );
}

/** The answers of one send or clear. */
export function ResultsTable({ results }: { results: ProfileSendResult[] }) {
  const { t } = useTranslation();
  const f = (key: string) => t(`fields.chargingProfile.${key}`);
  return (
    <Table<ProfileSendResult>
      size="small"
      pagination={false}
      rowKey={(r) => `${r.serialNumber}:${r.connectorNo}`}
      dataSource={results}
      data-testid="profile-results"
      columns={[
        { key: 'serialNumber', dataIndex: 'serialNumber', title: f('serialNumber') },
        { key: 'connectorNo', dataIndex: 'connectorNo', title: f('connectorNo'), render: (n: number) => <ConnectorNo n={n} /> },
        { key: 'status', dataIndex: 'status', title: f('status'), render: (s: ProfileTargetStatus) => <TargetStatus status={s} /> },
        {
          key: 'chargerStatus',
          dataIndex: 'chargerStatus',
          title: f('chargerStatus'),
          render: (v: string | null) => (v ? <Typography.Text code>{v}</Typography.Text> : null),
        },
        { key: 'message', dataIndex: 'message', title: f('message') },
      ]}
    />
  );
}
