import type { UiCatalogue } from '../zh-CN';

/** The large screen (issue 20 item 2): the control room's wall display. */
const largeScreen: UiCatalogue['largeScreen'] = {
  title: 'Charging network live',
  open: 'Large screen',
  back: 'Back to the console',
  fullScreen: 'Full screen',
  exitFullScreen: 'Exit full screen',
  kpi: {
    power: 'Power drawn now',
    energy: 'Energy today',
    income: 'Income today',
    count: 'Charges today',
    utilisation: 'Utilisation today',
  },
  unit: {
    kw: 'kW',
    kwh: 'kWh',
    percent: '%',
    kwValue: '{{value}} kW',
  },
  status: 'Connectors by status',
  ranking: "Today's income by station",
  powerCurve: 'Power over 24 hours (kW)',
  faults: 'Open faults',
  noFaults: 'No open faults',
  state: {
    faulted: 'Fault',
    charging: 'Charging',
    available: 'Free',
    offline: 'Offline',
  },
  tooltip: 'Charging on {{charging}} of {{connectors}} connectors · {{power}} kW · income today {{income}}',
  cluster: '{{count}} stations',
  clusterFigures: 'Charging on {{charging}} of {{connectors}} connectors · {{power}} kW',
  truncated: 'Only the first {{count}} stations are shown',
};

export default largeScreen;
