import { api } from '@csms/contract';
import { defineResource } from '../../shared/resource/types';

/** Per station: points online and offline, connectors by status (spec: station status). */
export const stationStateResource = defineResource({
  name: 'monitor',
  api: { list: api.monitor.stations },
  rowKey: 'stationId',
  hideActions: ['detail'],
  columns: [
    { key: 'stationName', width: 180, ellipsis: true },
    { key: 'providerName', width: 150, ellipsis: true },
    { key: 'points', width: 100 },
    { key: 'pointsOnline', width: 110 },
    { key: 'pointsOffline', width: 110 },
    { key: 'connectors', width: 100 },
    { key: 'available', width: 90 },
    { key: 'charging', width: 90 },
    { key: 'unavailable', width: 100 },
    { key: 'faulted', width: 90 },
    { key: 'offline', width: 90 },
  ],
  search: [{ key: 'stationName', kind: 'text' }],
});
