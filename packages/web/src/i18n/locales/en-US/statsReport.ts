import type { UiCatalogue } from '../zh-CN';

const statsReport: UiCatalogue['statsReport'] = {
  period: 'Period',
  range: 'Dates',
  provider: 'Provider',
  station: 'Station',
  point: 'Charge point',
  allProviders: 'All providers',
  allStations: 'All stations',
  allPoints: 'All charge points',
  zone: 'Days in the {tz} time zone',
  export: 'Export',
  empty: 'No data in this period',
};

const operateStatistics: UiCatalogue['operateStatistics'] = {
  sessions: 'Sessions',
  energy: 'Energy (kWh)',
  chargingTime: 'Charging time (h)',
  utilisation: 'Utilisation (%)',
  idleTime: 'Idle time (h)',
  averageSession: 'Average session (min)',
  faults: 'Faults',
  faultRate: 'Fault rate (%)',
  utilisationHint: 'Utilisation = connector time charging ÷ connector time online (connectors × the elapsed part of the period)',
  faultRateHint: 'Fault rate = charge points with a fault in the period ÷ all charge points',
  perDay: 'Sessions and energy per day',
  heatmap: 'Session starts by weekday and hour',
  topStations: 'Stations with the most energy',
  bottomStations: 'Stations with the least energy',
  topPoints: 'Charge points with the most energy',
  bottomPoints: 'Charge points with the least energy',
  table: 'Details',
  weekdays: { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' },
  hour: '{h}:00',
  starts: 'Starts',
};

const financialStatistics: UiCatalogue['financialStatistics'] = {
  income: 'Income ($)',
  elecFee: 'Electricity fees ($)',
  serviceFee: 'Service fees ($)',
  reserveFee: 'Reservation fees ($)',
  discounts: 'Discounts ($)',
  recharges: 'Recharges ($)',
  refunds: 'Refunds ($)',
  transfers: 'Corporate transfers ($)',
  invoiced: 'Invoiced ($)',
  outstanding: 'Balances at period end ($)',
  groupBy: 'Group by',
  perDay: 'Income, discounts, recharges and refunds per day ($)',
  byKind: 'Income by fee kind ($)',
  table: 'Details',
  settledHint: 'Bills count on the day they were settled; recharges, refunds, transfers and balances belong to providers, not stations',
};

export default { statsReport, operateStatistics, financialStatistics };
