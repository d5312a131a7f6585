import { type TimedChargeDto, type TimedChargeRunDto, timedChargeApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Modal, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { StationTime } from '../../shared/format/StationTime';
import { EnumWord } from './timed-charge.resource';

/** Each day's start of one timed charge, per connector, newest first, with the charger's own answer. */
export function TimedChargeRunsDialog({ row, onClose }: { row: TimedChargeDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { data, isFetching } = useQuery({
    queryKey: [timedChargeApi.runs.path, row?.id],
    queryFn: ({ signal }) => call(timedChargeApi.runs, { query: { id: row!.id } }, { signal }),
    enabled: row !== null,
  });
  const f = (key: string) => t(`fields.timedCharge.${key}`);
  return (
    <Modal
      open={row !== null}
      title={t('timedCharge.runsTitle', { id: row?.id, serialNumber: row?.serialNumber })}
      onCancel={onClose}
      footer={null}
      width={900}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('timedCharge.runsHint', { zone: row?.timeZone ?? '' })}</Typography.Paragraph>
      <Table<TimedChargeRunDto>
        size="small"
        loading={isFetching}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
        rowKey={(r) => `${r.day}:${r.connectorNo}:${r.runTime}`}
        dataSource={data ?? []}
        locale={{ emptyText: t('timedCharge.runsEmpty') }}
        data-testid="timed-runs"
        columns={[
          { key: 'day', dataIndex: 'day', title: f('day') },
          { key: 'connectorNo', dataIndex: 'connectorNo', title: f('connectorNo') },
          {
            key: 'status',
            dataIndex: 'status',
            title: f('status'),
            render: (s: TimedChargeRunDto['status']) => (
              <Tag color={s === 'started' ? 'success' : 'error'} data-status={s}>
                {t(`enums.timedChargeRunStatus.${s}`)}
              </Tag>
            ),
          },
          {
            key: 'reason',
            dataIndex: 'reason',
            title: f('reason'),
            render: (v: string | null) => <EnumWord group="timedChargeReason" value={v} />,
          },
          {
            key: 'chargerStatus',
            dataIndex: 'chargerStatus',
            title: f('chargerStatus'),
            render: (v: string | null) => (v ? <Typography.Text code>{v}</Typography.Text> : null),
          },
          { key: 'cardNumber', dataIndex: 'cardNumber', title: f('cardNumber') },
          {
            key: 'runTime',
            dataIndex: 'runTime',
            title: f('runTime'),
            render: (v: string) => (row ? <StationTime at={v} zone={row.timeZone} /> : null),
          },
        ]}
      />
    </Modal>
  );
}
