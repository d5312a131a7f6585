import { DEFAULT_MIN_CURRENT_A, localControllerApi } from '@csms/contract';
import { groupOptions } from '../../shared/options/group-options';
import { stationOptions } from '../../shared/options/station-point-options';
import { defineResource } from '../../shared/resource/types';
import { PointsField, PriorityPointsField } from './inputs';

const joined = (v: unknown) => ((v as string[] | undefined) ?? []).join(', ');

/**
 * Local controllers (spec §3 "Local controller: name, description, limit power (W), points,
 * station"; issue 15 item 2): a power budget over some points of one station that the server's
 * balancer shares among their charging connectors. A point belongs to one controller at most.
 */
export const localControllerResource = defineResource({
  name: 'localController',
  api: {
    list: localControllerApi.list,
    get: localControllerApi.get,
    add: localControllerApi.add,
    edit: localControllerApi.edit,
    remove: localControllerApi.remove,
    export: localControllerApi.export,
  },
  exportSource: 'localController',
  columns: [
    { key: 'id', width: 110, sorter: true },
    { key: 'name', width: 160 },
    { key: 'stationName', width: 150 },
    { key: 'limitW', width: 140, sorter: true },
    { key: 'minCurrentA', width: 150 },
    { key: 'serialNumbers', width: 220, render: joined, ellipsis: true },
    { key: 'prioritySerialNumbers', width: 180, render: joined, ellipsis: true },
    { key: 'priorityGroupNames', width: 160, render: joined, ellipsis: true },
    { key: 'ratedSumW', width: 180 },
    { key: 'providerName', width: 140, defaultHidden: true },
    { key: 'createTime', kind: 'datetime', width: 170 },
    { key: 'description', hideInTable: true, wide: true },
  ],
  search: [
    { key: 'name', kind: 'text' },
    { key: 'stationId', kind: 'select', remote: stationOptions },
  ],
  initialValues: () => ({ minCurrentA: DEFAULT_MIN_CURRENT_A }),
  form: [
    { key: 'name', kind: 'text' },
    { key: 'stationId', kind: 'select', remote: stationOptions },
    { key: 'description', kind: 'textarea', span: 24 },
    { key: 'limitW', kind: 'number', props: { min: 1, precision: 0 }, extra: () => 'localController.limitHint' },
    { key: 'minCurrentA', kind: 'number', props: { min: 1, max: 32 }, extra: () => 'localController.minCurrentHint' },
    {
      key: 'serialNumbers',
      kind: 'custom',
      span: 24,
      render: (ctx) => <PointsField {...ctx} resource="localController" testId="controller-points" />,
    },
    {
      key: 'prioritySerialNumbers',
      kind: 'custom',
      span: 24,
      extra: () => 'localController.priorityHint',
      render: (ctx) => <PriorityPointsField {...ctx} />,
    },
    {
      key: 'priorityGroupIds',
      kind: 'select',
      span: 24,
      remote: groupOptions,
      props: { mode: 'multiple' },
      extra: () => 'localController.priorityGroupHint',
    },
  ],
});
