import type zh from '../zh-CN/smart';

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

const smart: Strings<typeof zh> = {
  smart: {
    tabs: { chargingProfile: 'Central system smart charging' },
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
};
export default smart;
