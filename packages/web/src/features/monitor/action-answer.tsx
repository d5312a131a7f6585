import type { ActionStatus, LocalListState } from '@csms/contract';
import { Descriptions, Table, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionStatusTag } from '../../shared/ocpp/action-status-tag';
import { formatDateTime } from '../../shared/resource/cells';
import type { ActionKey } from './actions';
import { LocalListRecord } from './local-list';

// ECharts comes with a composite schedule's answer, not with the monitoring screens.
const ScheduleChart = lazy(() => import('./schedule-chart'));

/** What every action answers, plus the charger's own fields of some. */
export interface Answer {
  status: ActionStatus;
  chargerStatus: string | null;
  message: string | null;
  listVersion?: number | null;
  entries?: number;
  updateType?: 'Full' | 'Differential';
  /** The server's record of the point's local list after the answer. */
  state?: LocalListState;
  data?: string | null;
  /** GetTransactionStatus (2.0.1): whether the session is ongoing (null: none named) and whether messages wait. */
  ongoing?: boolean | null;
  messagesInQueue?: boolean | null;
  connectorId?: number | null;
  scheduleStart?: string | null;
  chargingSchedule?: {
    chargingRateUnit: string;
    duration: number | null;
    chargingSchedulePeriod: { startPeriod: number; limit: number; numberPhases: number | null }[];
  } | null;
}

/** The charger's answer in words (both languages), with what it sent back. */
export function ActionAnswer({ action, answer }: { action: ActionKey; answer: Answer }) {
  const { t } = useTranslation();
  const f = (key: string) => t(`fields.pointAction.${key}`);
  // Unlock's success is "unlocked" (spec §4: unlock succeeded, failed, not supported).
  const words =
    action === 'unlock' && answer.status === 'accepted' ? t('monitor.dialog.unlocked') : t(`enums.actionStatus.${answer.status}`);
  const items = [
    { key: 'status', label: f('status'), children: <ActionStatusTag status={answer.status} words={words} /> },
    answer.message ? { key: 'message', label: f('message'), children: answer.message } : null,
    answer.chargerStatus
      ? { key: 'chargerStatus', label: f('chargerStatus'), children: <Typography.Text code>{answer.chargerStatus}</Typography.Text> }
      : null,
    answer.listVersion !== undefined && answer.listVersion !== null
      ? { key: 'listVersion', label: f('listVersion'), children: answer.listVersion }
      : null,
    answer.updateType ? { key: 'updateType', label: f('updateType'), children: t(`enums.localListUpdateType.${answer.updateType}`) } : null,
    answer.entries !== undefined ? { key: 'entries', label: f('entries'), children: answer.entries } : null,
    answer.data !== undefined && answer.data !== null
      ? { key: 'data', label: f('data'), children: <Typography.Text code>{answer.data}</Typography.Text> }
      : null,
    ...(['ongoing', 'messagesInQueue'] as const).map((k) =>
      typeof answer[k] === 'boolean' ? { key: k, label: f(k), children: t(`enums.yesNo.${answer[k] ? 1 : 0}`) } : null,
    ),
    answer.scheduleStart ? { key: 'scheduleStart', label: f('scheduleStart'), children: formatDateTime(answer.scheduleStart) } : null,
  ].filter((x) => x !== null);
  const schedule = answer.chargingSchedule;
  return (
    <div data-testid="action-answer" data-status={answer.status}>
      <Descriptions column={1} size="small" bordered items={items} />
      {answer.state && (
        <div style={{ marginTop: 12 }}>
          <LocalListRecord state={answer.state} />
        </div>
      )}
      {action === 'getCompositeSchedule' && answer.status === 'accepted' && (
        <div style={{ marginTop: 12 }}>
          {schedule ? (
            <>
              <Suspense fallback={null}>
                <ScheduleChart schedule={schedule} start={answer.scheduleStart ?? null} />
              </Suspense>
              <Table
                size="small"
                pagination={false}
                rowKey="startPeriod"
                dataSource={schedule.chargingSchedulePeriod}
                columns={[
                  { key: 'startPeriod', dataIndex: 'startPeriod', title: t('monitor.dialog.startPeriod') },
                  {
                    key: 'limit',
                    dataIndex: 'limit',
                    title: `${t('monitor.dialog.limit')} (${schedule.chargingRateUnit})`,
                  },
                  { key: 'numberPhases', dataIndex: 'numberPhases', title: t('monitor.dialog.phases') },
                ]}
              />
            </>
          ) : (
            <Typography.Text type="secondary">{t('monitor.dialog.noSchedule')}</Typography.Text>
          )}
        </div>
      )}
    </div>
  );
}
