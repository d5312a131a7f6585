import { monitorApi } from '@csms/contract';
import { defineResource } from '../../shared/resource/types';
import { StationConnectors } from './cells';

/** Per station: points online and offline, connectors by status (spec: station status). */
export const stationStateResource = defineResource({
  name: 'monitor',
  api: { list: monitorApi.stations },
  rowKey: 'stationId',
  hideActions: ['detail'],
  columns: [
    { key: 'stationName', width: 200, ellipsis: true },
    { key: 'providerName', width: 160, ellipsis: true },
    { key: 'points', width: 90 },
    { key: 'pointsOnline', width: 120 },
    { key: 'pointsOffline', width: 120 },
    { key: 'connectors', width: 440, render: (_, row) => <StationConnectors counts={row} /> },
    // The same counts one per column, for those who turn them on (and for sorting).
    ...(['available', 'charging', 'unavailable', 'faulted', 'offline'] as const).map((key) => ({
      key,
      width: 110,
      sorter: true,
      defaultHidden: true,
    })),
  ],
  search: [{ key: 'stationName', kind: 'text' }],
});
