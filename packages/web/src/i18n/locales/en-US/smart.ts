import type zh from '../zh-CN/smart';

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

const smart: Strings<typeof zh> = {
  smart: {
    tabs: {
      loadBalancing: 'Load balancing',
      chargingProfile: 'Central system smart charging',
      localController: 'Local smart charging',
      timedCharge: 'Timed charging',
    },
  },
  chargingProfile: {
    entity: 'charging profile',
    send: 'Send',
    sendConfirm: 'Send charging profile {id} to its {count} points and connectors?',
    sendTitle: 'Answers: charging profile {id}',
    sentSummary: '{accepted} of {total} accepted',
    clear: 'Clear',
    clearTitle: 'Clear charging profiles on a point',
    clearHint: 'The charger deletes the profiles that match every condition below; with a profile ID only that one.',
    clearThis: 'This profile only (ID {id})',
    clearMatching: 'By conditions',
    clearedSummary: 'Cleared by the charger; {count} of our records marked cleared',
    inForce: 'Profiles on a point',
    inForceTitle: 'Charging profiles point {serialNumber} holds',
    inForceEmpty: 'This point holds no charging profile',
    pickPoint: 'Choose a point',
    periodsHint: 'Each period applies from that many seconds after the schedule starts; the first starts at 0.',
    addPeriod: 'Add period',
    removePeriod: 'Remove period',
    connectorPoint: '0 (whole point)',
    chooseStationFirst: 'Choose the station first',
    targetsTitle: 'Targets and answers',
  },
  localController: {
    entity: 'local controller',
    limitHint:
      'The power all the controller’s points may draw together; the platform shares it among the charging connectors and shares it again as sessions start and end.',
    minCurrentHint: 'No car charges at less than this current per phase; when the power runs short, later sessions wait at 0 W.',
    priorityHint: 'Sessions on these points are served first.',
    priorityGroupHint: 'Sessions of these user groups’ members are served first, as on priority points.',
    choosePointsFirst: 'Choose the points first',
  },
  loadBalancing: {
    allStations: 'All stations',
    refreshHint: 'Refreshes every 2 seconds',
    empty:
      'No local controllers yet. Add one in the Local smart charging tab and choose its points: the platform then shares its limit among the connectors that charge.',
    emptyStation: 'This station has no local controller.',
    openControllers: 'Go to Local smart charging',
    noSessions: 'No connector is charging or waiting',
    usage: 'Measured power is {percent}% of the limit',
    plannedAt: 'Last planned: {time}',
    notPlanned: 'Not planned yet',
    lastHour: 'Last hour',
    noHistory: 'Nothing recorded in the last hour',
    watts: '{value} W',
    loadFailed: 'Live figures are unavailable for now: {reason}',
  },
  timedCharge: {
    entity: 'timed charge',
    cancel: 'Cancel timed charge',
    cancelConfirm: 'Cancel timed charges {ids}? No further start is sent; a charge already started is not stopped.',
    runs: 'Runs',
    runsTitle: 'Runs: timed charge {id} (point {serialNumber})',
    runsHint: 'One row per day and connector, newest first; times on the station’s clock ({zone}).',
    runsEmpty: 'Not run yet',
    choosePointFirst: 'Choose the point first',
    userHint: 'Each day’s start uses a valid card of this user.',
    startTimeHint: 'On the station’s clock: every day of the valid period at this time.',
  },
};
export default smart;
