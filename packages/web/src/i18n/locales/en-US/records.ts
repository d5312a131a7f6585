import type zh from '../zh-CN/records';

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

const records: Strings<typeof zh> = {
  chargeRecord: {
    entity: 'charging record',
    detail: 'Detail',
    print: 'Print bill',
    confirm: 'Confirm record',
    confirmQuestion:
      'The meter data of transaction {id} failed the checks ({reason}). Once confirmed, it is billed and charged from the meter data as it is. Confirm it?',
    confirmDone: 'Record confirmed',
    pageTitles: { detail: 'Charging record', print: 'Charging bill' },
    detailTitle: 'Charging record {id}',
    back: 'Back',
    loadFailed: 'The charging record could not be loaded',
    sections: { session: 'Session', bill: 'Bill', process: 'Process data' },
    invalidAlert: 'The meter data of this record failed the checks: {reason}. It is not billed until an operator confirms it.',
    confirmedAlert: 'The meter data of this record failed the checks ({reason}); {name} confirmed it at {time}.',
    lateStopAlert:
      'Closed late: the charger sent this session’s Stop at {time}, after the record had been closed as never stopped; it now shows the real end.',
    adjustedAlert: 'The settled bill was corrected by {amount} for the real end (see the adjustment lines and the balance history).',
    adjustmentTag: 'Adjustment',
    notBilledAlert: 'This record is not billed: {reason}',
    waitingBill: 'Not billed yet',
    noLines: 'No bill lines',
    noSamples: 'This session has no process data',
    thinned: 'Many samples: shown evenly thinned',
    total: 'Total',
    listTimeZoneNote: 'Times are in each station’s time zone; hover over a time to see which.',
    bill: {
      title: 'Charging bill',
      printButton: 'Print',
      billNo: 'Bill number',
      provider: 'Operator',
      customer: 'Customer',
      session: 'Session',
      lines: 'Charges',
      summary: 'Summary',
      printedAt: 'Printed at',
      timeZoneNote: 'Times are in the station’s time zone ({tz}).',
      unbilledNote: 'This record is not billed yet; the amounts below were not charged.',
      thanks: 'Thank you for charging with us!',
    },
  },
  alarmRecord: {
    entity: 'alarm record',
    timeZoneNote: 'Times are in each station’s time zone; hover over a time to see which.',
  },
  statistics: {
    today: {
      title: 'Today',
      energy: 'Energy today (kWh)',
      income: 'Income today ($)',
      count: 'Charges today',
      utilisation: 'Connector utilisation (%)',
      hint: "Days in {tz}; a charge counts on the day it started. Utilisation: connector time charging ÷ connector time online, since each station's local midnight",
    },
    assets: {
      title: 'Assets',
      stations: 'Stations',
      points: 'Charge points',
      kinds: 'AC {ac} · DC {dc} · AC/DC {acdc}',
      connectors: 'Connectors',
      chargeUsers: 'Charge users',
      cards: 'Cards',
    },
    trend: {
      title: 'Revenue trend',
      income: 'Income ($)',
      label: 'Revenue trend chart',
    },
  },
};
export default records;
