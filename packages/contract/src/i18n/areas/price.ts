import type { AreaVocabulary } from './strings.js';

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
      confirmPast: '确认追溯生效',
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
      confirmPast:
        '该版本自 {time}（场站时间）起生效，早于当前时间：将重新计价 {sessions} 笔未结算订单（现为 ${current}，改后 ${next}）。请确认后再保存',
      savedPast: '已确认保存自 {time}（场站时间）起生效的版本：重新计价 {sessions} 笔未结算订单（原 ${current}，现 ${next}）',
    },
  },
  validation: {
    unitPrice: '{field}须在 0 到 100 之间，最多 4 位小数',
    reserveFee: '{field}须在 0 到 1000 之间，最多 2 位小数',
    priceSlots: '{field}须为全天 48 个半小时时段，每个时段一个费率',
  },
} satisfies AreaVocabulary;
