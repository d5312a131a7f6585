import { type MaterialApplyDto, type MaterialApplyStatus, materialApplyApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Empty, Modal, Spin, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { StateFlowChart } from '../../shared/flow/StateFlowChart';
import { formatDateTime } from '../../shared/resource/cells';
import { ApplySummary } from './material-apply.resource';

/** Where each state is drawn: applied on the left, agreed above and not agreed below. */
const place: Record<MaterialApplyStatus, { x: number; y: number }> = {
  applied: { x: 0, y: 60 },
  agreed: { x: 240, y: 0 },
  notAgreed: { x: 240, y: 120 },
};

/** An apply order's flow chart (`getApplyOrderFlowChart`) and its steps: who applied, who decided, with what opinion. */
export function ApplyFlowDialog({ row, onClose }: { row: MaterialApplyDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const chart = useQuery({
    queryKey: [materialApplyApi.flowChart.path, row?.taskId],
    queryFn: () => call(materialApplyApi.flowChart, { query: { taskId: row!.taskId } }),
    enabled: row !== null,
  });
  return (
    <Modal
      open={row !== null}
      title={row ? t('materialApply.flowTitle', { taskId: row.taskId }) : ''}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={640}
    >
      {row && <ApplySummary row={row} t={t} />}
      {chart.data ? (
        <>
          <StateFlowChart
            testId="apply-flow-chart"
            height={200}
            nodes={chart.data.nodes.map((n) => ({
              id: n.status,
              label: t(`enums.materialApplyStatus.${n.status}`),
              state: n.state,
              ...place[n.status],
            }))}
            edges={chart.data.edges}
          />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('materialApply.history')}
          </Typography.Title>
          {chart.data.steps.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
          ) : (
            <Timeline
              data-testid="apply-steps"
              items={chart.data.steps.map((s, i) => ({
                key: i,
                color: s.kind === 'notAgreed' ? 'red' : s.kind === 'agreed' ? 'green' : 'blue',
                content: (
                  <>
                    <Typography.Text strong>{t(`enums.materialApplyStep.${s.kind}`)}</Typography.Text>{' '}
                    <Typography.Text type="secondary">
                      {formatDateTime(s.at)}
                      {s.actorName ? ` · ${t('materialApply.byActor', { name: s.actorName })}` : ''}
                    </Typography.Text>
                    {s.note && <div>{s.note}</div>}
                  </>
                ),
              }))}
            />
          )}
        </>
      ) : (
        <Spin />
      )}
    </Modal>
  );
}
