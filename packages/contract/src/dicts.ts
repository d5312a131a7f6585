import { connectorTypes, type connectorStandards, type equipmentTypes } from './api/point.js';
import { stationAmenities, type StationStatus } from './api/station.js';
import type { PointStatus } from './api/monitor.js';
import type { ActionStatus } from './api/point-action.js';
import { chargePointErrorCodes } from './api/alarm-record.js';
import type { AuthorizationReason } from './api/ocpp-log.js';
import { billingNotes, invalidReasons, stopReasons, type ChargeAuthorization, type ChargeValidity } from './api/charge-record.js';
import { translate, type Lang } from './i18n/index.js';

/** Dictionaries served by `GET /system/dict/data/type/{type}`: values from the contract, labels from the vocabulary. */
export interface DictEntry {
  dictLabel: string;
  dictValue: string;
  /** antd Tag colour hint (RuoYi's listClass: default, primary, success, info, warning, danger). */
  listClass: string;
  cssClass: string;
}

/** Values in display order with their listClass (an array: numeric-looking object keys would be re-sorted). */
type DictDef = { enumKey: string; values: [value: string, listClass: string][] };

const def = (enumKey: string, values: Record<string, string> | [string, string][]): DictDef => ({
  enumKey,
  values: Array.isArray(values) ? values : Object.entries(values),
});

export const dictionaries = {
  providerType: def('providerType', { super: 'primary', common: 'default' }),
  userStatus: def('userStatus', [
    ['1', 'success'],
    ['0', 'danger'],
  ]),
  yesNo: def('yesNo', [
    ['1', 'primary'],
    ['0', 'default'],
  ]),
  logMode: def('logMode', { web: 'primary', api: 'info', ocpp: 'warning' }),
  clientErrorSource: def('clientErrorSource', { error: 'danger', unhandledrejection: 'warning', boundary: 'danger' }),
  logResult: def('logResult', {
    '200': 'success',
    '400': 'warning',
    '401': 'danger',
    '403': 'danger',
    '404': 'warning',
    '409': 'warning',
    '500': 'danger',
    '601': 'warning',
  }),
  operation: def('operation', {
    login: 'info',
    logout: 'info',
    changePassword: 'warning',
    add: 'success',
    edit: 'primary',
    remove: 'danger',
    export: 'warning',
    upload: 'info',
    download: 'info',
    status: 'warning',
    resetPassword: 'warning',
    chargeUser: 'primary',
    testMail: 'info',
    send: 'success',
    read: 'info',
    confirm: 'warning',
    remoteStart: 'success',
    remoteStop: 'warning',
    reset: 'danger',
    unlock: 'warning',
    changeAvailability: 'warning',
    clearCache: 'info',
    sendLocalList: 'primary',
    getLocalListVersion: 'info',
    triggerMessage: 'info',
    transactionStatus: 'info',
    dataTransfer: 'info',
    getCompositeSchedule: 'info',
    getConfiguration: 'info',
    deviceModel: 'info',
    securityEvent: 'danger',
    changeConfiguration: 'primary',
    changeConfigurationMany: 'primary',
    // Written by the OCPP endpoint, not by a console request.
    autoRegister: 'warning',
    move: 'primary',
    newKey: 'warning',
    sendKey: 'warning',
    setNetworkProfile: 'warning',
    keyTaken: 'success',
    sendProfile: 'primary',
    clearProfile: 'warning',
    cancelTimedCharge: 'warning',
    reserve: 'success',
    cancelReservation: 'warning',
    retryFirmware: 'primary',
    getDiagnostics: 'info',
    assign: 'primary',
    accept: 'success',
    report: 'info',
    reassign: 'warning',
    archive: 'default',
    feedback: 'info',
    save: 'primary',
    apply: 'primary',
    approve: 'success',
    register: 'primary',
    reject: 'danger',
    refresh: 'info',
    end: 'warning',
    saveRules: 'primary',
    applySubmit: 'primary',
    override: 'warning',
    clearOverride: 'primary',
    recompute: 'info',
    issueVoucher: 'success',
    revokeVoucher: 'danger',
    chooseVoucher: 'primary',
    activate: 'success',
    endActivity: 'warning',
    issue: 'success',
    lost: 'danger',
    cancelLoss: 'primary',
    expire: 'warning',
    recharge: 'success',
    refund: 'warning',
    members: 'primary',
    import: 'info',
    other: 'default',
  }),
  roleEnabled: def('roleEnabled', [
    ['true', 'success'],
    ['false', 'danger'],
  ]),
  messageRead: def('messageRead', [
    ['0', 'warning'],
    ['1', 'success'],
  ]),
  providerValidity: def('providerValidity', [
    ['1', 'default'],
    ['2', 'default'],
    ['3', 'default'],
  ]),
  exportSource: def('exportSource', {
    organization: 'default',
    systemUser: 'default',
    systemLog: 'default',
    message: 'default',
    station: 'default',
    point: 'default',
    chargeUser: 'default',
    card: 'default',
    userGroup: 'default',
    car: 'default',
    rechargeRecord: 'default',
    ocppLog: 'default',
    chargeRecord: 'default',
    alarmRecord: 'default',
  }),
  chargeUserType: def('chargeUserType', { card: 'primary', phone: 'success', platform: 'warning' }),
  cardState: def('cardState', { valid: 'success', lost: 'danger', expired: 'warning' }),
  cardExpiredBy: def('cardExpiredBy', { operator: 'warning', date: 'default' }),
  tradeType: def('tradeType', {
    recharge: 'success',
    refund: 'warning',
    charge: 'primary',
    transfer: 'info',
    adjustment: 'default',
    bonus: 'success',
  }),
  accountKind: def('accountKind', { card: 'primary', mobile: 'success' }),
  ledgerSource: def('ledgerSource', {
    console: 'default',
    ocpp: 'primary',
    app: 'success',
    import: 'info',
    transfer: 'warning',
    activity: 'success',
  }),
  stationStatus: def('stationStatus', { operating: 'success', maintenance: 'warning', closed: 'default' } satisfies Record<
    StationStatus,
    string
  >),
  amenity: def('amenity', Object.fromEntries(stationAmenities.map((a) => [a, 'default']))),
  equipmentType: def('equipmentType', { ac: 'primary', dc: 'warning', acdc: 'info' } satisfies Record<
    (typeof equipmentTypes)[number],
    string
  >),
  connectorStandard: def('connectorStandard', { ac: 'primary', dc: 'warning', combo: 'info' } satisfies Record<
    (typeof connectorStandards)[number],
    string
  >),
  connectorType: def('connectorType', Object.fromEntries(connectorTypes.map((c) => [c, 'default']))),
  pointStatus: def('pointStatus', {
    available: 'success',
    charging: 'primary',
    unavailable: 'warning',
    faulted: 'danger',
    offline: 'default',
  } satisfies Record<PointStatus, string>),
  actionStatus: def('actionStatus', {
    accepted: 'success',
    rejected: 'danger',
    scheduled: 'info',
    failed: 'danger',
    notImplemented: 'warning',
    versionMismatch: 'warning',
    notSupported: 'warning',
    offline: 'default',
    faulted: 'danger',
    occupied: 'warning',
    unavailable: 'warning',
    rebootRequired: 'warning',
  } satisfies Record<ActionStatus, string>),
  ocppDirection: def('ocppDirection', { in: 'primary', out: 'success', refused: 'danger' }),
  authorizationReason: def('authorizationReason', {
    accepted: 'success',
    unknown: 'danger',
    otherProvider: 'danger',
    lost: 'danger',
    expired: 'warning',
    expiredByOperator: 'warning',
    userDisabled: 'danger',
    concurrentTx: 'warning',
    insufficientBalance: 'warning',
    groupLimit: 'warning',
    masterPass: 'warning',
  } satisfies Record<AuthorizationReason, string>),
  ocppMessageType: def('ocppMessageType', [
    ['2', 'primary'],
    ['3', 'success'],
    ['4', 'danger'],
  ]),
  alarmLevel: def('alarmLevel', { serious: 'danger', common: 'warning' }),
  startType: def('startType', { card: 'primary', remote: 'info' }),
  chargeValidity: def('chargeValidity', {
    valid: 'success',
    invalid: 'danger',
    confirmed: 'warning',
  } satisfies Record<ChargeValidity, string>),
  chargeAuthorization: def('chargeAuthorization', {
    authorized: 'success',
    unauthorized: 'danger',
  } satisfies Record<ChargeAuthorization, string>),
  stopReason: def('stopReason', Object.fromEntries(stopReasons.map((r) => [r, 'default']))),
  invalidReason: def('invalidReason', Object.fromEntries(invalidReasons.map((r) => [r, 'danger']))),
  billingNote: def('billingNote', Object.fromEntries(billingNotes.map((r) => [r, 'warning']))),
  alarmState: def('alarmState', { open: 'danger', cleared: 'success' }),
  chargePointErrorCode: def('chargePointErrorCode', Object.fromEntries(chargePointErrorCodes.map((c) => [c, 'default']))),
} satisfies Record<string, DictDef>;

export type DictType = keyof typeof dictionaries;
export const dictTypes = Object.keys(dictionaries) as DictType[];

export function dictEntries(lang: Lang, type: DictType): DictEntry[] {
  const d = dictionaries[type];
  return d.values.map(([value, listClass]) => ({
    dictLabel: translate(lang, `enums.${d.enumKey}.${value}`),
    dictValue: value,
    listClass,
    cssClass: '',
  }));
}
