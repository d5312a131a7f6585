import { Flex } from 'antd';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { useMonitorLive } from './live';
import { stationStateResource } from './station.resource';
import { StatusCountsBar } from './status-counts';

/** Real-time monitoring → station status: counts and each station's points and connectors by status, live. */
export default function ChargeStationPage() {
  useMonitorLive();
  return (
    <Flex vertical gap={16}>
      <StatusCountsBar />
      <ResourcePage resource={stationStateResource} />
    </Flex>
  );
}
