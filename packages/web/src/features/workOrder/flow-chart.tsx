import type { WorkOrderFlowChart, WorkOrderStatus } from '@csms/contract';
import { useTranslation } from 'react-i18next';
import { StateFlowChart } from '../../shared/flow/StateFlowChart';

/** Where each state of the flow is drawn: the main line, with resolved above and failed below. */
const place: Record<WorkOrderStatus, { x: number; y: number }> = {
  new: { x: 0, y: 70 },
  assigned: { x: 190, y: 70 },
  processing: { x: 380, y: 70 },
  resolved: { x: 570, y: 0 },
  failed: { x: 570, y: 140 },
  archived: { x: 760, y: 0 },
};

/** An order's flow chart (issue 17 item 1): the six states of the flow, drawn by the shared flow chart. */
export default function FlowChart({ chart }: { chart: WorkOrderFlowChart }) {
  const { t } = useTranslation();
  return (
    <StateFlowChart
      testId="work-order-flow-chart"
      nodes={chart.nodes.map((n) => ({ id: n.status, label: t(`enums.workOrderStatus.${n.status}`), state: n.state, ...place[n.status] }))}
      edges={chart.edges.map((e) => ({ ...e, back: e.from === 'failed' && e.to === 'assigned' }))}
    />
  );
}
