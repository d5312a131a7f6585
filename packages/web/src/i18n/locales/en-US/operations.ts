import type { UiCatalogue } from '../zh-CN';

const memberLevel: UiCatalogue['memberLevel'] = {
  entity: 'member level',
  tab: 'Member levels',
  sortOrderHint: 'Higher is better; a user holds the highest level whose threshold he meets',
  thresholdHint: 'Settled spend (currency) or energy (kWh) over the last 12 months',
  validityHint: 'Days a reached level is kept at least; afterwards it is computed again and may fall',
  money: '{value}',
  kwh: '{value} kWh',
};

const member: UiCatalogue['member'] = {
  entity: 'member',
  tab: 'Members',
  overridden: 'Member level overridden',
  clearOverride: 'End override',
  clearOverrideConfirm: 'End the level override of “{account}”?',
  overrideCleared: 'Override ended',
  recompute: 'Recompute levels',
  recomputed: 'Levels of {users} users recomputed',
};

const voucherTemplate: UiCatalogue['voucherTemplate'] = {
  entity: 'voucher template',
  tab: 'Voucher templates',
  valueAmountHint: 'Amount off (currency), taken from the service fee, at most all of it',
  valuePercentHint: 'Percent off the service fee (1–100)',
  minBillHint: 'The bill (before discounts) it needs (currency); 0: any bill',
  stationsHint: 'None: every station of the provider (a user bound to stations chooses among its own)',
  validityHint: 'Days valid from issue; empty: the fixed valid-from and valid-to dates below',
};

const voucher: UiCatalogue['voucher'] = {
  entity: 'voucher',
  tab: 'Vouchers',
  issueTitle: 'Issue vouchers',
  issued: 'Vouchers issued',
  groupHint: 'A group: one voucher to each of its members',
  percent: '{value}%',
  revoke: 'Revoke',
  revokeTitle: 'Revoke voucher',
  revoked: 'Voucher revoked',
  choose: 'Use for a session',
  chooseTitle: 'Use the voucher for a session',
  chooseHint: 'The number of an unsettled charging record of the voucher’s holder: its settlement uses this voucher when it applies',
  chosen: 'Voucher chosen for the session',
};

const activity: UiCatalogue['activity'] = {
  entity: 'activity',
  valueHint: 'Percent off the service fee, or currency off per kWh',
  hoursHint: 'Only energy charged in these local hours (the station’s clock) is discounted; none: all day',
  stationsHint: 'None: every station of the provider (a user bound to stations chooses among its own)',
  groupsHint: 'None: every user',
  percentOff: '{value}% off service fee',
  perKwhOff: '{value} off per kWh',
  allDay: 'All day',
  activate: 'Activate',
  activateConfirm: 'Activate “{name}”? Its terms can no longer change; it can only be ended early.',
  activated: 'Activity activated',
  end: 'End',
  endConfirm: 'End “{name}” now? Sessions ending afterwards get no discount from it.',
  ended: 'Activity ended',
  bonusTerms: 'Recharge {min} or more: {bonus} bonus',
  grantTerms: '“{template}” to {to}',
  bonusHint: 'Credited to the same card or mobile account, as a recharge record of its own',
};

export default { memberLevel, member, voucherTemplate, voucher, activity };
