import { api, type EndpointDef } from '@csms/contract';

/**
 * The point menu (spec §1: remote start and stop, reboot, unlock, enable or disable, clear cache,
 * whitelist, trigger message, data transfer, composite schedule). Enable and disable are one
 * command (ChangeAvailability) with the type chosen by the entry.
 */
export const actionKeys = [
  'remoteStart',
  'remoteStop',
  'reset',
  'unlock',
  'enable',
  'disable',
  'clearCache',
  'sendLocalList',
  'getLocalListVersion',
  'triggerMessage',
  'transactionStatus',
  'dataTransfer',
  'getCompositeSchedule',
] as const;
export type ActionKey = (typeof actionKeys)[number];

export const endpointOf: Record<ActionKey, EndpointDef> = {
  remoteStart: api.pointAction.remoteStart,
  remoteStop: api.pointAction.remoteStop,
  reset: api.pointAction.reset,
  unlock: api.pointAction.unlock,
  enable: api.pointAction.changeAvailability,
  disable: api.pointAction.changeAvailability,
  clearCache: api.pointAction.clearCache,
  sendLocalList: api.pointAction.sendLocalList,
  getLocalListVersion: api.pointAction.getLocalListVersion,
  triggerMessage: api.pointAction.triggerMessage,
  transactionStatus: api.pointAction.transactionStatus,
  dataTransfer: api.pointAction.dataTransfer,
  getCompositeSchedule: api.pointAction.getCompositeSchedule,
};

/** The permission the server checks for an action (the menu hides what fails it). */
export const permiOf = (key: ActionKey): string => (endpointOf[key].access as { permi: string }).permi;

/** Actions that only ask before sending: no input besides the point. */
export const confirmOnly: Partial<Record<ActionKey, string>> = {
  clearCache: 'monitor.dialog.clearCacheConfirm',
  sendLocalList: 'monitor.dialog.sendLocalListConfirm',
  getLocalListVersion: 'monitor.dialog.getLocalListVersionConfirm',
};

/** The point an action is aimed at, with what its dialog offers to choose from. */
export interface ActionTarget {
  serialNumber: string;
  connectors: { connectorNo: number; status?: string; transactionId?: number | null }[];
  /** The OCPP version the point speaks, when known: 2.0.1 offers a reset of one EVSE. */
  ocppVersion?: string | null;
}

/** What the dialog opens with: the action, its point (or none: choose one), and preset values (remote stop from a session). */
export interface ActionRequest {
  action: ActionKey;
  target?: ActionTarget;
  preset?: Record<string, unknown>;
}
