export * from './codes.js';
export * from './dicts.js';
export * from './endpoint.js';
export * from './i18n/index.js';
export * from './menus.js';
export * from './permissions.js';
export * from './password.js';
export * from './validation.js';
export * from './events.js';
export * from './zone-time.js';
export * from './ocpp-keys.js';
export * from './api/auth.js';
export * from './api/common.js';
export * from './api/organization.js';
export * from './api/provider.js';
export * from './api/client-error.js';
export * from './api/system-user.js';
export * from './api/role.js';
export * from './api/system-log.js';
export * from './api/message.js';
export * from './api/export-config.js';
export * from './api/profile.js';
export * from './api/charge-user.js';
export * from './api/card.js';
export * from './api/id-token.js';
export * from './api/user-group.js';
export * from './api/car.js';
export * from './api/recharge-record.js';
export * from './api/price.js';
export * from './api/station.js';
export * from './api/point.js';
export * from './api/point-action.js';
export * from './api/monitor.js';
export * from './api/ocpp-log.js';
export * from './api/charge-record.js';
export * from './api/alarm-record.js';
export * from './api/statistics.js';
export * from './api/statistics-report.js';
export * from './api/charging-profile.js';
export * from './api/charging-limit.js';
export * from './api/local-controller.js';
export * from './api/timed-charge.js';
export * from './api/reservation.js';
export * from './api/work-order.js';
export * from './api/material.js';
export * from './api/finance.js';
export * from './api/apply.js';
export * from './api/warn.js';
export * from './api/operations.js';
export { faultSchemeZh } from './i18n/areas/fault-scheme.js';
export { faultSchemeEn } from './i18n/areas/fault-scheme.en.js';
export * from './api/firmware.js';
export * from './api/diagnostics.js';

import { authApi } from './api/auth.js';
import { alarmRecordApi } from './api/alarm-record.js';
import { chargeRecordApi } from './api/charge-record.js';
import { statisticsApi } from './api/statistics.js';
import { financialStatisticsApi, operateStatisticsApi } from './api/statistics-report.js';
import { chargingProfileApi } from './api/charging-profile.js';
import { localControllerApi } from './api/local-controller.js';
import { timedChargeApi } from './api/timed-charge.js';
import { reservationApi } from './api/reservation.js';
import { componentApi, workOrderApi } from './api/work-order.js';
import { materialApi, materialApplyApi } from './api/material.js';
import { corporateTransferApi, invoiceApi, transferRecordApi } from './api/finance.js';
import { applyApi } from './api/apply.js';
import { warnApi } from './api/warn.js';
import { activityApi, memberApi, memberLevelApi, voucherApi, voucherTemplateApi } from './api/operations.js';
import { firmwareUpgradeApi, firmwareVersionApi } from './api/firmware.js';
import { diagnosticsApi } from './api/diagnostics.js';
import { carApi } from './api/car.js';
import { cardApi } from './api/card.js';
import { chargeUserApi } from './api/charge-user.js';
import { rechargeRecordApi } from './api/recharge-record.js';
import { userGroupApi } from './api/user-group.js';
import { commonApi } from './api/common.js';
import { exportConfigApi } from './api/export-config.js';
import { messageApi } from './api/message.js';
import { monitorApi } from './api/monitor.js';
import { ocppLogApi } from './api/ocpp-log.js';
import { pointActionApi } from './api/point-action.js';
import { organizationApi } from './api/organization.js';
import { profileApi } from './api/profile.js';
import { priceApi } from './api/price.js';
import { pointApi } from './api/point.js';
import { stationApi } from './api/station.js';
import { providerApi } from './api/provider.js';
import { roleApi } from './api/role.js';
import { systemLogApi } from './api/system-log.js';
import { clientErrorApi } from './api/client-error.js';
import { systemUserApi } from './api/system-user.js';
import type { EndpointDef } from './endpoint.js';

/** Every endpoint of the product; the server must mount each one (checked at start-up). */
export const api = {
  auth: authApi,
  common: commonApi,
  organization: organizationApi,
  provider: providerApi,
  systemUser: systemUserApi,
  role: roleApi,
  systemLog: systemLogApi,
  clientError: clientErrorApi,
  message: messageApi,
  exportConfig: exportConfigApi,
  profile: profileApi,
  chargeUser: chargeUserApi,
  card: cardApi,
  userGroup: userGroupApi,
  car: carApi,
  rechargeRecord: rechargeRecordApi,
  price: priceApi,
  station: stationApi,
  point: pointApi,
  pointAction: pointActionApi,
  monitor: monitorApi,
  ocppLog: ocppLogApi,
  chargeRecord: chargeRecordApi,
  alarmRecord: alarmRecordApi,
  statistics: statisticsApi,
  operateStatistics: operateStatisticsApi,
  financialStatistics: financialStatisticsApi,
  chargingProfile: chargingProfileApi,
  localController: localControllerApi,
  timedCharge: timedChargeApi,
  reservation: reservationApi,
  firmwareVersion: firmwareVersionApi,
  firmwareUpgrade: firmwareUpgradeApi,
  diagnostics: diagnosticsApi,
  workOrder: workOrderApi,
  component: componentApi,
  material: materialApi,
  materialApply: materialApplyApi,
  corporateTransfer: corporateTransferApi,
  transferRecord: transferRecordApi,
  invoice: invoiceApi,
  warn: warnApi,
  apply: applyApi,
  memberLevel: memberLevelApi,
  member: memberApi,
  voucherTemplate: voucherTemplateApi,
  voucher: voucherApi,
  activity: activityApi,
} satisfies Record<string, Record<string, EndpointDef>>;

export function allEndpoints(): EndpointDef[] {
  return Object.values(api).flatMap((group) => Object.values(group) as EndpointDef[]);
}
export * from './rich-text.js';
