import { type LiveSession, monitorApi } from '@csms/contract';
import { StopOutlined } from '@ant-design/icons';
import { formatKw, formatKwh } from '../../shared/format/units';
import { stationOptions } from '../../shared/options/station-point-options';
import { defineResource } from '../../shared/resource/types';
import { permiOf, type ActionRequest } from './actions';
import { Elapsed, OnlineTag } from './cells';

/** Sessions in progress (spec: remote start and stop), live from the event stream. */
export function chargingResource(open: (r: ActionRequest) => void) {
  return defineResource({
    name: 'monitor',
    api: { list: monitorApi.charging },
    rowKey: 'transactionId',
    hideActions: ['detail'],
    columns: [
      { key: 'transactionId', width: 120 },
      { key: 'serialNumber', width: 140 },
      { key: 'connectorNo', width: 110 },
      // Computed on screen: the duration ticks every second.
      { key: 'duration' as 'startedAt', width: 110, render: (_, row) => <Elapsed since={row.startedAt} /> },
      { key: 'energyWh', width: 110, render: (v) => formatKwh(v) },
      { key: 'powerW', width: 100, render: (v) => formatKw(v) },
      { key: 'soc', width: 90 },
      { key: 'idTag', width: 150 },
      { key: 'account', width: 150 },
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
        // The one button of a narrow column: "Stop" rather than "Remote stop".
        label: 'monitor.stopSession',
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
