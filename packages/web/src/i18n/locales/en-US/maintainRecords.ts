import type zh from '../zh-CN/maintainRecords';

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

const maintainRecords: Strings<typeof zh> = {
  componentUse: {
    entity: 'maintenance record',
    history: 'Maintenance history',
    historyTitle: 'Maintenance history of point {serial}',
    noRecords: 'No maintenance recorded for this point',
    openList: 'Open in maintenance records',
    typed: 'Component typed by hand',
  },
  faultCode: {
    entity: 'vendor fault code',
    title: 'Vendor fault codes',
    hint: "How to fix the chargers' own fault codes (the vendor error code of a status notification). An order's recommended fix shows its provider's entry for the charger's vendor code.",
    stepsHint: 'One step per line.',
    providerHint: 'The code belongs to the provider chosen; it cannot change later.',
    saved: 'Vendor fault code saved',
    removeConfirm: 'Remove vendor fault code {code}?',
    removed: 'Vendor fault code removed',
  },
};

export default maintainRecords;
