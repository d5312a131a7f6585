import { AuditOutlined, CheckOutlined, EyeOutlined, InboxOutlined, UserSwitchOutlined } from '@ant-design/icons';
import {
  workOrderCreate,
  workOrderPriorities,
  workOrderSources,
  workOrderStatuses,
  type EndpointDef,
  type WorkOrderDto,
  type WorkOrderPriority,
  type WorkOrderSource as WorkOrderSourceKind,
  type WorkOrderStatus,
  workOrderApi,
} from '@csms/contract';
import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { call } from '../../shared/api/client';
import { stationOptions } from '../../shared/options/station-point-options';
import { confirmAction } from '../../shared/resource/row-actions';
import { defineResource, type ColumnDef, type RowActionDef } from '../../shared/resource/types';
import { Connector, OrderConnectorField, OrderPointField, PriorityTag, SourceText, StatusTag } from './work-order-inputs';

/** The flow steps that open a dialog of the page (the accept is a confirm). */
export type FlowAction = 'assign' | 'reassign' | 'report' | 'archive';

export interface WorkOrderActions {
  /** The order with its history, in the page's drawer. */
  detail: (row: WorkOrderDto) => void;
  flow: (action: FlowAction, row: WorkOrderDto) => void;
}

/** The permission the endpoint's contract requires (what the server checks first; it then checks the area role). */
export const permiOf = (ep: EndpointDef): string[] => (typeof ep.access === 'object' && 'permi' in ep.access ? [ep.access.permi] : []);

/** Each dialog step: the status it applies to, its endpoint (its permission) and its button. */
export const flowSteps: Record<FlowAction, { status: WorkOrderStatus; endpoint: EndpointDef; icon: ReactNode }> = {
  assign: { status: 'new', endpoint: workOrderApi.assign, icon: <UserSwitchOutlined /> },
  reassign: { status: 'failed', endpoint: workOrderApi.reassign, icon: <UserSwitchOutlined /> },
  report: { status: 'processing', endpoint: workOrderApi.report, icon: <AuditOutlined /> },
  archive: { status: 'resolved', endpoint: workOrderApi.archive, icon: <InboxOutlined /> },
};

/** The list's columns, and the detail drawer's fields. */
export const workOrderColumns: ColumnDef<WorkOrderDto>[] = [
  { key: 'taskId', width: 130, fixed: 'left', sorter: true },
  { key: 'status', width: 110, render: (v) => <StatusTag status={v as WorkOrderStatus} /> },
  { key: 'priority', width: 100, render: (v) => <PriorityTag priority={v as WorkOrderPriority} /> },
  { key: 'faultCode', width: 160, render: (v) => (typeof v === 'string' && v ? <Typography.Text code>{v}</Typography.Text> : null) },
  { key: 'stationName', width: 150, ellipsis: true },
  { key: 'serialNumber', width: 160 },
  { key: 'connectorNo', width: 100, render: (v) => <Connector n={v as number} /> },
  { key: 'transactionId', width: 120 },
  { key: 'areaName', width: 130 },
  { key: 'serviceManName', width: 120 },
  { key: 'repeats', width: 130, sorter: true },
  { key: 'faultClearedAt', kind: 'datetime', width: 170 },
  { key: 'source', width: 130, render: (v) => <SourceText source={v as WorkOrderSourceKind} /> },
  { key: 'createTime', kind: 'datetime', width: 170, sorter: true },
  { key: 'updateTime', kind: 'datetime', width: 170, sorter: true },
  { key: 'providerName', width: 140, defaultHidden: true },
];

// The station only narrows the point picker: the server takes the point's.
const formSchema = { create: workOrderCreate.extend({ stationId: z.number().int().positive().optional() }) };

const options = <T extends string>(values: readonly T[], vocabulary: string) =>
  values.map((v) => ({ value: v, label: `enums.${vocabulary}.${v}` }));

/**
 * Work orders, fault treatment (spec §2 `/workOrder/list`; issue 17): orders from chargers' serious
 * faults and by hand, through assign → accept → report → archive. Each step's button shows on the
 * rows in the status it applies to, to users holding its permission; the server also checks the
 * user's part in the order's service area and says why it refuses.
 */
export function workOrderResource(actions: WorkOrderActions) {
  const flowAction = (action: FlowAction): RowActionDef<WorkOrderDto> => ({
    key: action,
    label: `workOrder.${action}`,
    icon: flowSteps[action].icon,
    permi: permiOf(flowSteps[action].endpoint),
    hidden: (row) => row.status !== flowSteps[action].status,
    onClick: (row) => actions.flow(action, row),
  });
  return defineResource({
    name: 'workOrder',
    api: { list: workOrderApi.list, add: workOrderApi.add, export: workOrderApi.export },
    exportSource: 'workOrder',
    formSchema,
    texts: { createTitle: 'workOrder.createTitle', saved: 'workOrder.created' },
    hideActions: ['detail'],
    columns: workOrderColumns,
    search: [
      { key: 'taskId', kind: 'text' },
      { key: 'faultCode', kind: 'text' },
      { key: 'serialNumber', kind: 'text' },
      { key: 'status', kind: 'select', options: options(workOrderStatuses, 'workOrderStatus') },
      { key: 'priority', kind: 'select', options: options(workOrderPriorities, 'workOrderPriority') },
      { key: 'source', kind: 'select', options: options(workOrderSources, 'workOrderSource') },
      { key: 'stationId', kind: 'select', remote: stationOptions },
      { key: 'createTime', kind: 'dateRange', keys: ['startTime', 'endTime'], zoneDays: true },
    ],
    initialValues: () => ({ connectorNo: 0, priority: 'normal' }),
    form: [
      { key: 'stationId', kind: 'select', remote: stationOptions },
      { key: 'serialNumber', kind: 'custom', render: (ctx) => <OrderPointField {...ctx} /> },
      {
        key: 'connectorNo',
        kind: 'custom',
        extra: () => 'workOrder.connectorHint',
        render: (ctx) => <OrderConnectorField {...ctx} />,
      },
      { key: 'faultCode', kind: 'text', props: { maxLength: 50 } },
      { key: 'priority', kind: 'select', options: options(workOrderPriorities, 'workOrderPriority'), props: { allowClear: false } },
      {
        key: 'transactionId',
        kind: 'number',
        extra: () => 'workOrder.transactionHint',
        props: { min: 1, precision: 0 },
      },
      { key: 'description', kind: 'textarea', span: 24, props: { rows: 4, maxLength: 1000, showCount: true } },
    ],
    toBody: ({ stationId: _station, ...body }) => body,
    rowActions: [
      {
        key: 'detail',
        label: 'common.detail',
        icon: <EyeOutlined />,
        permi: permiOf(workOrderApi.detail),
        onClick: (row) => actions.detail(row),
      },
      flowAction('assign'),
      flowAction('reassign'),
      {
        ...confirmAction<WorkOrderDto>({
          key: 'accept',
          label: 'workOrder.accept',
          permi: permiOf(workOrderApi.accept),
          hidden: (row) => row.status !== 'assigned',
          content: 'workOrder.acceptConfirm',
          params: (row) => ({ taskId: row.taskId }),
          run: (row) => call(workOrderApi.accept, { body: { taskId: row.taskId } }),
          success: 'workOrder.accepted',
        }),
        icon: <CheckOutlined />,
      },
      flowAction('report'),
      flowAction('archive'),
    ],
  });
}
