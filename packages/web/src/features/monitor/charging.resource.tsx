import { api, type LiveSession } from '@csms/contract';
import { StopOutlined } from '@ant-design/icons';
import { call } from '../../shared/api/client';
import { defineResource, type RemoteOptions } from '../../shared/resource/types';
import { permiOf, type ActionRequest } from './actions';
import { Elapsed, OnlineTag } from './cells';
import { kw, kwh } from './format';

/** Stations for the search's picker (`getStations`), in the caller's scope. */
export const stationOptions: RemoteOptions = {
  key: 'monitor.stations',
  load: async () => (await call(api.station.options, { body: {} })).map((s) => ({ value: s.id, label: s.stationName })),
};

/** Sessions in progress (spec: remote start and stop), live from the event stream. */
export function chargingResource(open: (r: ActionRequest) => void) {
  return defineResource({
    name: 'monitor',
    api: { list: api.monitor.charging },
    rowKey: 'transactionId',
    hideActions: ['detail'],
    columns: [
      { key: 'transactionId', width: 90 },
      { key: 'serialNumber', width: 140 },
      { key: 'connectorNo', width: 80 },
      // Computed on screen: the duration ticks every second.
      { key: 'duration' as 'startedAt', width: 140, render: (_, row) => <Elapsed since={row.startedAt} /> },
      { key: 'energyWh', width: 110, render: (v) => kwh(v as number) },
      { key: 'powerW', width: 100, render: (v) => kw(v as number | null) },
      { key: 'soc', width: 90 },
      { key: 'idTag', width: 120 },
      { key: 'account', width: 120 },
      { key: 'stationName', width: 140, ellipsis: true },
      { key: 'startedAt', kind: 'datetime', width: 170 },
      { key: 'startType', dict: 'startType', width: 110 },
      { key: 'online', width: 90, render: (v) => <OnlineTag online={v === true} /> },
      { key: 'cardNumber', width: 130, defaultHidden: true },
      { key: 'lastSampleAt', kind: 'datetime', width: 170, defaultHidden: true },
    ],
    search: [
      { key: 'stationId', kind: 'select', remote: stationOptions },
      { key: 'serialNumber', kind: 'text' },
      { key: 'idTag', kind: 'text' },
    ],
    rowActions: [
      {
        key: 'remoteStop',
        label: 'monitor.actions.remoteStop',
        icon: <StopOutlined />,
        danger: true,
        permi: [permiOf('remoteStop')],
        onClick: (row: LiveSession) =>
          open({
            action: 'remoteStop',
            target: { serialNumber: row.serialNumber, connectors: [{ connectorNo: row.connectorNo, transactionId: row.transactionId }] },
            preset: { transactionId: row.transactionId, connectorNo: row.connectorNo },
          }),
      },
    ],
  });
}
