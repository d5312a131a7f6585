import { pointStatuses, type EndpointDef, type PointDto, pointApi, pointActionApi, componentApi } from '@csms/contract';
import i18n from 'i18next';
import { call } from '../../shared/api/client';
import { feedback } from '../../shared/feedback';
import { stationOptions } from '../../shared/options/station-point-options';
import { defineResource } from '../../shared/resource/types';
import { ConnectorList, Kw, KwInput, PointStatusTag, SerialNumber } from './cells';
import { ConnectorsInput, firstConnector } from './connectors-input';
import { showOcppKey } from './key-dialog';

const permi = (action: string) => `config:point:${action}`;

/** The permission the endpoint's contract requires. */
const permiOf = (ep: EndpointDef): string[] => (typeof ep.access === 'object' && 'permi' in ep.access ? [ep.access.permi] : []);

/** What the page composing the table opens for a row (a feature never imports another: CONVENTIONS §6). */
export interface PointActions {
  /** The point's maintenance history (the work orders' records), for users who may list them. */
  maintenance?: (row: PointDto) => void;
}

/**
 * Charge points (spec §3): serial number (the OCPP identity), station, equipment, rated power,
 * connectors with their type icons and live status; the OCPP key is shown once, on creation
 * and on "new key". With `actions.maintenance`, a row opens the point's maintenance history.
 */
export const pointResourceWith = (actions: PointActions = {}) =>
  defineResource({
    name: 'point',
    api: {
      list: pointApi.list,
      get: pointApi.get,
      add: pointApi.add,
      edit: pointApi.edit,
      remove: pointApi.remove,
      export: pointApi.export,
    },
    exportSource: 'point',
    initialValues: () => ({ connectors: [firstConnector] }),
    // The form edits connectors as the contract takes them: no live status, no nulls.
    toForm: (row) => ({
      ...row,
      connectors: row.connectors.map((c) => ({
        connectorNo: c.connectorNo,
        standard: c.standard,
        type: c.type,
        ...(c.connectorName ? { connectorName: c.connectorName } : {}),
      })),
    }),
    onSaved: (data, mode) => {
      if (mode === 'create') showOcppKey(data as { serialNumber: string; ocppKey: string });
    },
    columns: [
      { key: 'id', width: 80, sorter: true, defaultHidden: true },
      {
        key: 'serialNumber',
        width: 170,
        sorter: true,
        render: (_, row: PointDto) => <SerialNumber serial={row.serialNumber} needsPlacement={row.needsPlacement} />,
      },
      { key: 'pointName', width: 140, sorter: true },
      { key: 'stationName', width: 150, sorter: true },
      { key: 'providerName', width: 150, defaultHidden: true },
      { key: 'status', width: 100, render: (_, row: PointDto) => <PointStatusTag status={row.status} /> },
      { key: 'connectors', width: 170, render: (_, row: PointDto) => <ConnectorList connectors={row.connectors} /> },
      { key: 'equipmentType', dict: 'equipmentType', width: 100 },
      { key: 'ratedPowerW', label: 'fields.point.ratedPowerKw', width: 110, sorter: true, render: (v) => <Kw w={v as number} /> },
      { key: 'connectorCount', width: 90, defaultHidden: true },
      { key: 'softwareVersion', width: 130, defaultHidden: true },
      { key: 'online', dict: 'yesNo', width: 90, defaultHidden: true },
      { key: 'hasKey', dict: 'yesNo', width: 110, defaultHidden: true },
      { key: 'keySentTime', kind: 'datetime', width: 170, defaultHidden: true },
      { key: 'vendor', width: 120, defaultHidden: true },
      { key: 'model', width: 120, defaultHidden: true },
      { key: 'firmwareVersion', width: 130, defaultHidden: true },
      { key: 'ocppVersion', width: 110 },
      { key: 'lastSeenTime', kind: 'datetime', width: 170, sorter: true, defaultHidden: true },
      { key: 'createTime', kind: 'datetime', width: 170, sorter: true, defaultHidden: true },
    ],
    search: [
      { key: 'serialNumber', kind: 'text' },
      { key: 'pointName', kind: 'text' },
      { key: 'stationId', kind: 'select', remote: stationOptions },
      { key: 'status', kind: 'select', options: pointStatuses.map((s) => ({ value: s, label: `enums.pointStatus.${s}` })) },
    ],
    form: [
      { key: 'serialNumber', kind: 'text' },
      { key: 'pointName', kind: 'text' },
      // The station changes through "move", which keeps the provider.
      { key: 'stationId', kind: 'select', remote: stationOptions, readOnlyOn: 'edit' },
      { key: 'equipmentType', kind: 'dict', dict: 'equipmentType' },
      {
        key: 'ratedPowerW',
        kind: 'custom',
        label: 'fields.point.ratedPowerKw',
        render: ({ t }) => <KwInput placeholder={t('kit.inputPlaceholder', { field: t('fields.point.ratedPowerKw') })} />,
      },
      { key: 'softwareVersion', kind: 'text' },
      { key: 'connectors', kind: 'custom', span: 24, render: () => <ConnectorsInput /> },
    ],
    rowActions: [
      {
        key: 'move',
        label: 'point.move',
        permi: [permi('move')],
        onClick: (row, ctx) =>
          ctx.prompt({
            title: 'point.moveTitle',
            field: 'stationId',
            select: stationOptions,
            hint: 'point.moveHint',
            hintParams: { serial: row.serialNumber, station: row.stationName },
            schema: pointApi.move.body,
            base: { id: row.id },
            success: 'point.moved',
            onOk: async (stationId) => {
              await call(pointApi.move, { body: { id: row.id, stationId: Number(stationId) } });
              ctx.refetch();
            },
          }),
      },
      {
        key: 'newKey',
        label: 'point.newKey',
        permi: [permi('key')],
        onClick: (row, ctx) =>
          ctx.confirm({
            content: 'point.newKeyConfirm',
            params: { serial: row.serialNumber },
            onOk: async () => showOcppKey(await call(pointApi.newKey, { body: { id: row.id } })),
          }),
      },
      {
        // The charger gets a new key over OCPP and keeps its old one until it reconnects with it; nobody types a key.
        key: 'sendKey',
        label: 'point.sendKey',
        permi: permiOf(pointActionApi.sendKey),
        hidden: (row) => !row.hasKey,
        onClick: (row, ctx) =>
          ctx.confirm({
            content: 'point.sendKeyConfirm',
            params: { serial: row.serialNumber },
            success: null,
            onOk: async () => {
              const a = await call(pointActionApi.sendKey, { body: { serialNumber: row.serialNumber } });
              const words = a.message ?? i18n.t(`enums.actionStatus.${a.status}`);
              // Taken; not known (no answer: both keys work); refused or not delivered (nothing changed).
              if (a.status === 'accepted' || a.status === 'rebootRequired') feedback.message.success(words);
              else if (a.keySentTime) feedback.message.warning(words);
              else feedback.message.error(words);
            },
          }),
      },
      ...(actions.maintenance
        ? [
            {
              key: 'maintenance',
              label: 'componentUse.history',
              permi: permiOf(componentApi.list),
              onClick: (row: PointDto) => actions.maintenance!(row),
            },
          ]
        : []),
    ],
  });

/** The table without the actions a composing page adds. */
export const pointResource = pointResourceWith();
