import { type PointState, monitorApi } from '@csms/contract';
import type { ReactNode } from 'react';
import { PlayCircleOutlined, StopOutlined } from '@ant-design/icons';
import { stationOptions } from '../../shared/options/station-point-options';
import { defineResource, type RowActionDef } from '../../shared/resource/types';
import { actionKeys, permiOf, type ActionKey, type ActionRequest } from './actions';
import { ConnectorTags, OnlineTag, StatusTag } from './cells';

const icons: Partial<Record<ActionKey, ReactNode>> = { remoteStart: <PlayCircleOutlined />, remoteStop: <StopOutlined /> };

export const targetOf = (p: PointState) => ({ serialNumber: p.serialNumber, connectors: p.connectors, ocppVersion: p.ocppVersion });

/** Points with their connectors (spec: point status) and the point menu, each entry behind its permission. */
export function pointStateResource(open: (r: ActionRequest) => void) {
  const rowActions: RowActionDef<PointState>[] = actionKeys.map((key) => ({
    key,
    label: `monitor.actions.${key}`,
    icon: icons[key],
    danger: key === 'reset',
    permi: [permiOf(key)],
    // A message of OCPP 2.0.1 (a 1.6 point would be refused by the server).
    hidden: key === 'transactionStatus' ? (row: PointState) => row.ocppVersion !== '2.0.1' : undefined,
    onClick: (row: PointState) => open({ action: key, target: targetOf(row) }),
  }));
  return defineResource({
    name: 'monitor',
    api: { list: monitorApi.points },
    rowKey: 'chargePointId',
    hideActions: ['detail'],
    columns: [
      { key: 'serialNumber', width: 150 },
      { key: 'name', width: 130, ellipsis: true },
      { key: 'stationName', width: 130, ellipsis: true },
      { key: 'online', width: 90, render: (v) => <OnlineTag online={v === true} /> },
      { key: 'ocppVersion', width: 100 },
      { key: 'status', width: 110, render: (v) => <StatusTag status={v as PointState['status']} /> },
      {
        key: 'connectors',
        // Room for a connector's status and, beside it, an external limit.
        width: 280,
        render: (v, row) => <ConnectorTags serialNumber={row.serialNumber} connectors={v as PointState['connectors']} />,
      },
      { key: 'lastSeenAt', kind: 'datetime', width: 170 },
      { key: 'errorCode', width: 120, defaultHidden: true },
      { key: 'firmwareVersion', width: 120, defaultHidden: true },
    ],
    search: [
      { key: 'serialNumber', kind: 'text' },
      { key: 'stationId', kind: 'select', remote: stationOptions },
      { key: 'status', kind: 'dict', dict: 'pointStatus' },
      {
        key: 'online',
        kind: 'select',
        options: [
          { value: 'true', label: 'enums.statusCount.connected' },
          { value: 'false', label: 'enums.statusCount.offline' },
        ],
      },
    ],
    rowActions,
  });
}
