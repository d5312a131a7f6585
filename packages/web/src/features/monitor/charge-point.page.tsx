import { Flex } from 'antd';
import { useMemo, useState } from 'react';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { ActionDialog } from './action-dialog';
import type { ActionRequest } from './actions';
import { useMonitorLive } from './live';
import { pointStateResource } from './point.resource';
import { StatusCountsBar } from './status-counts';

/** Real-time monitoring → point status: counts, points with their connectors and the point menu, live. */
export default function ChargePointPage() {
  useMonitorLive();
  const [request, setRequest] = useState<ActionRequest | null>(null);
  const resource = useMemo(() => pointStateResource(setRequest), []);
  return (
    <Flex vertical gap={16}>
      <StatusCountsBar />
      <ResourcePage resource={resource} />
      <ActionDialog request={request} onClose={() => setRequest(null)} />
    </Flex>
  );
}
