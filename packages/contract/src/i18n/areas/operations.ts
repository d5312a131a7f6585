import type { AreaVocabulary } from './strings.js';

/** Operations: membership levels, members (issue 19). */
export const operationsZh = {
  fields: {
    memberLevel: {
      name: '等级名称',
      sortOrder: '等级顺序',
      basis: '达标依据',
      threshold: '达标门槛',
      discountPercent: '服务费折扣（%）',
      validityDays: '有效期（天）',
      memberCount: '会员数',
      text: '等级名称',
    },
    member: {
      account: '用户账号',
      phone: '手机号',
      levelId: '当前等级',
      levelName: '当前等级',
      computedLevelName: '计算等级',
      validUntil: '等级保持至',
      spendCents: '近 12 个月消费',
      energyWh: '近 12 个月电量',
      computeTime: '计算时间',
      overrideLevelId: '指定等级',
      overrideLevelName: '指定等级',
      overrideReason: '指定原因',
      overrideUntil: '指定截止日期',
      users: '用户数',
    },
  },
  enums: {
    discountKind: { member: '会员折扣', activity: '活动优惠', voucher: '优惠券' },
    memberBasis: { spend: '消费金额', energy: '充电电量' },
  },
  exportSource: { memberLevel: '会员等级', member: '会员' },
  operation: { override: '指定会员等级', clearOverride: '取消指定等级', recompute: '重新计算会员等级' },
  errors: {
    memberLevel: {
      nameTaken: '等级名称“{name}”在该运营商下已存在',
      orderTaken: '等级顺序 {sortOrder} 在该运营商下已被“{name}”使用',
      inUse: '等级“{name}”仍有会员或被指定，不能删除',
    },
    member: {
      levelNotOfProvider: '该等级不存在，或不属于该用户的运营商',
      untilPast: '指定截止日期须晚于现在',
    },
  },
  validation: {},
} satisfies AreaVocabulary;
