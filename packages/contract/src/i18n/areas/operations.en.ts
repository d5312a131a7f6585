import type { Strings } from './strings.js';
import type { operationsZh } from './operations.js';

export const operationsEn: Strings<typeof operationsZh> = {
  fields: {
    memberLevel: {
      name: 'Level name',
      sortOrder: 'Level order',
      basis: 'Qualifies by',
      threshold: 'Threshold',
      discountPercent: 'Service fee discount (%)',
      validityDays: 'Validity (days)',
      memberCount: 'Members',
      text: 'Level name',
    },
    member: {
      account: 'Account',
      phone: 'Phone',
      levelId: 'Level now',
      levelName: 'Level now',
      computedLevelName: 'Computed level',
      validUntil: 'Level kept until',
      spendCents: 'Spend, last 12 months',
      energyWh: 'Energy, last 12 months',
      computeTime: 'Computed at',
      overrideLevelId: 'Override level',
      overrideLevelName: 'Override level',
      overrideReason: 'Override reason',
      overrideUntil: 'Override until',
      users: 'Users',
    },
  },
  enums: {
    discountKind: { member: 'Member discount', activity: 'Activity discount', voucher: 'Voucher' },
    memberBasis: { spend: 'Spend', energy: 'Energy' },
  },
  exportSource: { memberLevel: 'Member levels', member: 'Members' },
  operation: { override: 'Override member level', clearOverride: 'End level override', recompute: 'Recompute member levels' },
  errors: {
    memberLevel: {
      nameTaken: 'The level name “{name}” already exists for this provider',
      orderTaken: 'Level order {sortOrder} is already used by “{name}” for this provider',
      inUse: 'The level “{name}” still has members or overrides and cannot be deleted',
    },
    member: {
      levelNotOfProvider: 'The level does not exist or is not of the user’s provider',
      untilPast: 'The override end must be in the future',
    },
  },
  validation: {},
};
