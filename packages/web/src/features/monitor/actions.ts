import { type EndpointDef, pointActionApi } from '@csms/contract';

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
  remoteStart: pointActionApi.remoteStart,
  remoteStop: pointActionApi.remoteStop,
  reset: pointActionApi.reset,
  unlock: pointActionApi.unlock,
  enable: pointActionApi.changeAvailability,
  disable: pointActionApi.changeAvailability,
  clearCache: pointActionApi.clearCache,
  sendLocalList: pointActionApi.sendLocalList,
  getLocalListVersion: pointActionApi.getLocalListVersion,
  triggerMessage: pointActionApi.triggerMessage,
  transactionStatus: pointActionApi.transactionStatus,
  dataTransfer: pointActionApi.dataTransfer,
  getCompositeSchedule: pointActionApi.getCompositeSchedule,
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
