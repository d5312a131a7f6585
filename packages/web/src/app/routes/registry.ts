import { DashboardOutlined } from '@ant-design/icons';
import { createElement, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { matchPath } from 'react-router';
import { loadedLazy } from './loaded-lazy';

/**
 * One screen of the console. `path` is a menu path of the contract's menuTree (the menu shows
 * only paths that have a screen), or a page outside the menu (an edit page, a detail page).
 */
export interface ScreenDef {
  path: string;
  component: LazyExoticComponent<ComponentType>;
  icon?: ReactNode;
  /** Tab cannot be closed (the dashboard). */
  affix?: boolean;
  /** Entering the page marks cached queries stale, so it always refetches instead of showing cached data. */
  noCache?: boolean;
  /** A page that never shows in the menu. */
  hidden?: boolean;
  /** Menu entry highlighted while this page is open; a page outside the menu also takes its access from it. */
  activeMenu?: string;
  /** Title key; default `menu.<name>` of the menu node. */
  titleKey?: string;
  /** Signed in, but drawn over the whole window without the console's frame (the large screen). */
  bare?: boolean;
}

/** Spec §9: a screen's code that has not arrived after 120 s counts as failed. */
export const CHUNK_TIMEOUT_MS = 120_000;

type ScreenModule = { default: ComponentType };

/** Each screen's loader, shared by `lazy()` and `preloadScreen`: a module fetched early is not fetched again. */
const loaders = new WeakMap<LazyExoticComponent<ComponentType>, () => Promise<ScreenModule>>();

/** `lazy()` with the chunk timeout (and no suspension once fetched: loaded-lazy.ts); the screen's error boundary shows the failure with a reload. */
export function lazyScreen(load: () => Promise<ScreenModule>): LazyExoticComponent<ComponentType> {
  const { component, fetch } = loadedLazy(load, (fetching) =>
    Promise.race([
      fetching,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('chunk load timeout')), CHUNK_TIMEOUT_MS)),
    ]),
  );
  loaders.set(component, fetch);
  return component;
}

/**
 * Fetches the code of the screen at an address (a cold load fetches it beside the shell instead of
 * after the shell has rendered; see app/console-root.tsx). An address of no screen fetches nothing.
 */
export async function preloadScreen(pathname: string, list: readonly Pick<ScreenDef, 'path' | 'component'>[] = screens): Promise<void> {
  const screen = list.find((s) => matchPath({ path: s.path, end: true }, pathname) !== null);
  const load = screen && loaders.get(screen.component);
  // A failure is the screen's to show when it renders (its boundary offers the reload).
  if (load) await load().catch(() => undefined);
}

/** The single static registry: a capability registers its screen by adding one entry. */
export const screens: ScreenDef[] = [
  {
    path: '/dashboard',
    component: lazyScreen(() => import('../dashboard/dashboard-page')),
    icon: createElement(DashboardOutlined),
    affix: true,
    titleKey: 'menu.dashboard',
  },
  // The control room's wall display (issue 20 item 2): signed in (DESIGN.md §9), without the console's frame.
  {
    path: '/largeScreen',
    component: lazyScreen(() => import('../largeScreen/large-screen.page')),
    hidden: true,
    bare: true,
    activeMenu: '/dashboard',
    titleKey: 'largeScreen.title',
  },
  // Real-time monitoring (live from the event stream) and the point configuration with the OCPP log.
  { path: '/realTimeMonitor/charging', component: lazyScreen(() => import('../../features/monitor/charging.page')) },
  { path: '/realTimeMonitor/chargeStation', component: lazyScreen(() => import('../../features/monitor/charge-station.page')) },
  { path: '/realTimeMonitor/chargePoint', component: lazyScreen(() => import('../../features/monitor/charge-point.page')) },
  // Smart charging (issue 15): load balancing, charging profiles, local controllers and timed charging, one tab each; reservations.
  { path: '/realTimeMonitor/smartCharging', component: lazyScreen(() => import('../../features/smartCharging/smart-charging.page')) },
  { path: '/realTimeMonitor/reservation', component: lazyScreen(() => import('../../features/reservation/reservation.page')) },
  // Work orders (issue 17): fault treatment, with the service areas behind its flow.
  { path: '/workOrder/list', component: lazyScreen(() => import('../../features/workOrder/work-order.page')) },
  // Feedback: anyone signed in files a problem with a point; maintenance records: what repairs replaced.
  { path: '/workOrder/create', component: lazyScreen(() => import('../../features/workOrder/feedback.page')) },
  { path: '/workOrder/maintainManage', component: lazyScreen(() => import('../../features/workOrder/maintenance-records.page')) },
  // Spare parts (issue 17 item 4): the parts catalogue and the apply orders of work orders.
  { path: '/workOrder/sparePartsManage', component: lazyScreen(() => import('../../features/material/spare-parts.page')) },
  // Statistics (issue 20 items 3, 4): operation figures under operations, money under finance.
  {
    path: '/operateManagement/operateStatistics',
    component: lazyScreen(() => import('../../features/statistics/operate-statistics.page')),
  },
  {
    path: '/financialManagement/financialStatistics',
    component: lazyScreen(() => import('../../features/statistics/financial-statistics.page')),
  },
  // Operations (issue 19): membership levels and members.
  { path: '/operateManagement/membershipManage', component: lazyScreen(() => import('../../features/operations/membership.page')) },
  { path: '/operateManagement/activityManage', component: lazyScreen(() => import('../../features/operations/activity.page')) },
  { path: '/operateManagement/voucherManage', component: lazyScreen(() => import('../../features/operations/voucher.page')) },
  // Warning management (issue 17 item 3): stations' forecasts, warnings by rule and by hand.
  { path: '/workOrder/warnManage', component: lazyScreen(() => import('../../features/warn/warn.page')) },
  // Configuration: stations and charge points (two tabs), the station's new and edit pages outside the menu.
  { path: '/configurationManagement/stationManagement', component: lazyScreen(() => import('./station-management.page')) },
  {
    path: '/configurationManagement/stationManagement/station/new',
    component: lazyScreen(() => import('../../features/station/station-form.page')),
    hidden: true,
    noCache: true,
    activeMenu: '/configurationManagement/stationManagement',
    titleKey: 'station.newTitle',
  },
  {
    path: '/configurationManagement/stationManagement/station/edit/:id',
    component: lazyScreen(() => import('../../features/station/station-form.page')),
    hidden: true,
    noCache: true,
    activeMenu: '/configurationManagement/stationManagement',
    titleKey: 'station.editTitle',
  },
  // Version management (issue 16): firmware packages and the upgrades sent with them, one tab each.
  { path: '/configurationManagement/versionManage', component: lazyScreen(() => import('../../features/firmware/firmware.page')) },
  {
    path: '/configurationManagement/pointConfiguration',
    component: lazyScreen(() => import('../../features/pointConfig/point-config.page')),
  },
  { path: '/systemManagement/organizationManage', component: lazyScreen(() => import('../../features/organization/organization.page')) },
  { path: '/systemManagement/userManage', component: lazyScreen(() => import('../../features/systemUser/user-manage.page')) },
  // Personal center: outside the menu and without activeMenu, so open to every signed-in user.
  {
    path: '/user/profile',
    component: lazyScreen(() => import('../../features/profile/profile.page')),
    hidden: true,
    titleKey: 'profile.title',
  },
  // "My provider": the own provider's settings for a user who sees no other (no provider list); the page checks the permission.
  {
    path: '/user/myProvider',
    component: lazyScreen(() => import('../../features/systemUser/my-provider.page')),
    hidden: true,
    noCache: true,
    titleKey: 'provider.myTab',
  },
  { path: '/systemManagement/permissionManage', component: lazyScreen(() => import('../../features/role/role.page')) },
  { path: '/systemManagement/systemLog', component: lazyScreen(() => import('../../features/systemLog/system-log.page')) },
  { path: '/systemManagement/errorLog', component: lazyScreen(() => import('../../features/errorLog/error-log.page')) },
  // Users: RFID cards, charge users, user groups; configuration: cars; finance: recharge records.
  { path: '/userManagement/cardManage', component: lazyScreen(() => import('../../features/cards/card.page')) },
  { path: '/userManagement/chargeUser', component: lazyScreen(() => import('../../features/cards/charge-user.page')) },
  { path: '/userManagement/userGroup', component: lazyScreen(() => import('../../features/cards/user-group.page')) },
  { path: '/configurationManagement/carManage', component: lazyScreen(() => import('../../features/cards/car.page')) },
  { path: '/financialManagement/rechargeRecord', component: lazyScreen(() => import('../../features/cards/recharge-record.page')) },
  // Finance (issue 18): corporate transfers, their records (hidden, opened from a transfer), invoices.
  { path: '/financialManagement/corporateTransfer', component: lazyScreen(() => import('../../features/finance/corporate-transfer.page')) },
  { path: '/financialManagement/transferRecord', component: lazyScreen(() => import('../../features/finance/transfer-record.page')) },
  { path: '/financialManagement/invoiceRecordManage', component: lazyScreen(() => import('../../features/finance/invoice.page')) },
  // Records: charging records (with a detail page and a print bill), alarm records.
  { path: '/historyRecord/chargeRecord', component: lazyScreen(() => import('../../features/chargeRecord/charge-record.page')) },
  {
    path: '/historyRecord/chargeRecord/detail/:id',
    component: lazyScreen(() => import('../../features/chargeRecord/charge-record-detail.page')),
    hidden: true,
    activeMenu: '/historyRecord/chargeRecord',
    titleKey: 'chargeRecord.pageTitles.detail',
  },
  {
    path: '/historyRecord/chargeRecord/print/:id',
    component: lazyScreen(() => import('../../features/chargeRecord/charge-record-print.page')),
    hidden: true,
    activeMenu: '/historyRecord/chargeRecord',
    titleKey: 'chargeRecord.pageTitles.print',
  },
  { path: '/historyRecord/alarmRecord', component: lazyScreen(() => import('../../features/alarmRecord/alarm-record.page')) },
  // Finance: electricity prices, with the edit pages of a station's price and of a group price (outside the menu).
  { path: '/financialManagement/electricityPriceSetting', component: lazyScreen(() => import('../../features/price/price.page')) },
  {
    path: '/financialManagement/electricityPriceEdit',
    component: lazyScreen(() => import('../../features/price/price-edit.page')),
    hidden: true,
    noCache: true,
    activeMenu: '/financialManagement/electricityPriceSetting',
    titleKey: 'price.editTitle',
  },
  {
    path: '/financialManagement/groupElectricityPriceEdit',
    component: lazyScreen(() => import('../../features/price/group-price-edit.page')),
    hidden: true,
    noCache: true,
    activeMenu: '/financialManagement/electricityPriceSetting',
    titleKey: 'price.groupEditTitle',
  },
  // System messages: opened from the navbar's bell, open to every signed-in user (the server picks the view).
  {
    path: '/message/inbox',
    component: lazyScreen(() => import('../../features/message/message.page')),
    hidden: true,
    titleKey: 'message.title',
    noCache: true,
  },
  // Applications to join the platform (issue 21): applicant management (hidden in the menu) and the applicant's page.
  { path: '/apply/applyRecord', component: lazyScreen(() => import('../../features/apply/apply-record.page')), noCache: true },
  {
    path: '/apply/applyRecord/info/:id',
    component: lazyScreen(() => import('../../features/apply/apply-info.page')),
    hidden: true,
    noCache: true,
    activeMenu: '/apply/applyRecord',
    titleKey: 'apply.infoTitle',
  },
  // The public application form (spec §2); see publicPaths.
  {
    path: '/applyForm',
    component: lazyScreen(() => import('../../features/apply/apply-form.page')),
    hidden: true,
    titleKey: 'apply.formTitle',
  },
  // The drivers' agreement pages (spec: Disclaimer, Privacy Agreement) and 404 are drawn without antd,
  // outside the console: app/router.tsx.
];
