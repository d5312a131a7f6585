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

export default { memberLevel, member };
