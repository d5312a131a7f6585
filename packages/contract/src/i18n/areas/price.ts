import type { AreaVocabulary, Strings } from './strings.js';

/** Electricity prices and group electricity prices. */
export const priceZh = {
  fields: {
    price: {
      stationId: '场站',
      stationName: '场站名称',
      groupId: '用户分组',
      groupName: '用户分组',
      timeZone: '时区',
      currentId: '当前版本',
      effectiveFrom: '生效时间',
      upcomingFrom: '待生效版本',
      versionCount: '版本数',
      sharpElec: '尖时电费（$/kWh）',
      sharpService: '尖时服务费（$/kWh）',
      peakElec: '峰时电费（$/kWh）',
      peakService: '峰时服务费（$/kWh）',
      flatElec: '平时电费（$/kWh）',
      flatService: '平时服务费（$/kWh）',
      valleyElec: '谷时电费（$/kWh）',
      valleyService: '谷时服务费（$/kWh）',
      reserveFeeCents: '预约费（$/次）',
      slots: '分时时段',
      billedCount: '已结算订单数',
      used: '已使用',
      createdByName: '创建人',
    },
  },
  enums: {
    priceTier: { sharp: '尖', peak: '峰', flat: '平', valley: '谷' },
  },
  exportSource: {},
  operation: {},
  errors: {
    price: {
      versionUsed: '{time} 生效的版本已有 {count} 笔订单结算，不能删除',
      billedAfter: '该场站已有订单结算至 {time}（场站时间），新版本不能早于该时间生效；请选择更晚的时间或立即生效',
      sameTime: '该电价已有一个 {time} 生效的版本',
      groupProvider: '用户分组“{group}”与场站“{station}”不属于同一运营商',
    },
  },
  validation: {
    unitPrice: '{field}须在 0 到 100 之间，最多 4 位小数',
    reserveFee: '{field}须在 0 到 1000 之间，最多 2 位小数',
    priceSlots: '{field}须为全天 48 个半小时时段，每个时段一个费率',
  },
} satisfies AreaVocabulary;

export const priceEn: Strings<typeof priceZh> = {
  fields: {
    price: {
      stationId: 'Station',
      stationName: 'Station',
      groupId: 'User group',
      groupName: 'User group',
      timeZone: 'Time zone',
      currentId: 'Current version',
      effectiveFrom: 'Effective from',
      upcomingFrom: 'Next version from',
      versionCount: 'Versions',
      sharpElec: 'Sharp electricity fee ($/kWh)',
      sharpService: 'Sharp service fee ($/kWh)',
      peakElec: 'Peak electricity fee ($/kWh)',
      peakService: 'Peak service fee ($/kWh)',
      flatElec: 'Flat electricity fee ($/kWh)',
      flatService: 'Flat service fee ($/kWh)',
      valleyElec: 'Valley electricity fee ($/kWh)',
      valleyService: 'Valley service fee ($/kWh)',
      reserveFeeCents: 'Reservation fee ($ per reservation)',
      slots: 'Time slots',
      billedCount: 'Sessions billed',
      used: 'Used',
      createdByName: 'Created by',
    },
  },
  enums: {
    priceTier: { sharp: 'Sharp', peak: 'Peak', flat: 'Flat', valley: 'Valley' },
  },
  exportSource: {},
  operation: {},
  errors: {
    price: {
      versionUsed: 'The version effective from {time} has billed {count} sessions and cannot be removed',
      billedAfter:
        'Sessions at this station are billed up to {time} (station time); a version cannot take effect before then. Choose a later time or now',
      sameTime: 'This price already has a version effective from {time}',
      groupProvider: 'User group "{group}" and station "{station}" belong to different providers',
    },
  },
  validation: {
    unitPrice: '{field} must be between 0 and 100 with at most 4 decimals',
    reserveFee: '{field} must be between 0 and 1000 with at most 2 decimals',
    priceSlots: '{field} must be the 48 half hours of the day, each with a tier',
  },
};
