import type { ProfileSendResult, ProfileTargetDto, ProfileTargetStatus } from '@csms/contract';
import { Table, Tag, Typography, type TableColumnType } from 'antd';

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { actionStatusColor } from '../../shared/ocpp/action-status-tag';
import { formatDateTime } from '../../shared/resource/cells';

/** A target's state: a charger's answer in its usual colour, and the states a send can end in without one. */
const color: Partial<Record<ProfileTargetStatus, string>> = {
  ...actionStatusColor,
  noTransaction: 'warning',
  cleared: 'default',
  notSent: 'default',
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

type Answered = Pick<ProfileTargetDto, 'serialNumber' | 'connectorNo' | 'status' | 'chargerStatus'>;

/** A small table of charger answers, one row per point and connector: the shared columns, then `extra` (key, title key, cell). */
function AnswersTable<R extends Answered>({
  rows,
  testId,
  extra,
}: {
  rows: R[];
  testId: string;
  extra: { key: Extract<keyof R, string>; after?: 'serialNumber'; render?: (v: R[keyof R]) => ReactNode }[];
}) {
  const { t } = useTranslation();
  const f = (key: string) => t(`fields.chargingProfile.${key}`);
  const column = (c: (typeof extra)[number]): TableColumnType<R> => ({
    key: c.key,
    dataIndex: c.key,
    title: f(c.key),
    ...(c.render ? { render: (v: R[keyof R]) => c.render!(v) } : {}),
  });
  const afterSerial = extra.filter((c) => c.after === 'serialNumber').map(column);
  const atEnd = extra.filter((c) => c.after !== 'serialNumber').map(column);
  return (
    <Table<R>
      size="small"
      pagination={false}
      rowKey={(r) => `${r.serialNumber}:${r.connectorNo}`}
      dataSource={rows}
      data-testid={testId}
      columns={[
        { key: 'serialNumber', dataIndex: 'serialNumber', title: f('serialNumber') },
        ...afterSerial,
        { key: 'connectorNo', dataIndex: 'connectorNo', title: f('connectorNo'), render: (n: number) => <ConnectorNo n={n} /> },
        { key: 'status', dataIndex: 'status', title: f('status'), render: (s: ProfileTargetStatus) => <TargetStatus status={s} /> },
        {
          key: 'chargerStatus',
          dataIndex: 'chargerStatus',
          title: f('chargerStatus'),
          render: (v: string | null) => (v ? <Typography.Text code>{v}</Typography.Text> : null),
        },
        ...atEnd,
      ]}
    />
  );
}

/** Each point and connector of a profile with the charger's last answer. */
export function TargetsTable({ targets }: { targets: ProfileTargetDto[] }) {
  return (
    <AnswersTable
      rows={targets}
      testId="profile-targets"
      extra={[
        { key: 'pointName', after: 'serialNumber' },
        { key: 'transactionId' },
        { key: 'sentTime', render: (v) => (v ? formatDateTime(v) : null) },
      ]}
    />
  );
}

/** The answers of one send or clear. */
export function ResultsTable({ results }: { results: ProfileSendResult[] }) {
  return <AnswersTable rows={results} testId="profile-results" extra={[{ key: 'message' }]} />;
}
