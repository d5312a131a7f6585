import type { UiCatalogue } from '../zh-CN';

/** Configuration → stations and charge points. */
const station: UiCatalogue['station'] = {
  entity: 'station',
  tab: 'Stations',
  newTitle: 'New station',
  editTitle: 'Edit station',
  sectionBasic: 'Basics',
  sectionService: 'Service and amenities',
  sectionLocation: 'Location',
  unassigned: 'Unassigned',
  unassignedHint: 'Auto-registered charge points wait here to be placed',
  points: 'Points',
  selectCountry: 'Select the country or region',
  timeZoneDefault: "Leave empty for the server's default time zone",
  downloadPictures: 'Download pictures',
  picturesZip: 'station pictures',
  pictureHint: 'One jpg, png or gif image of at most 2 MB',
  mapTitle: 'Pick on the map',
  mapHint: 'Click the map to set the coordinates; drag to pan; zoom with the wheel, a pinch or the buttons.',
  mapNone: 'No map tiles are configured (CSMS_MAP_TILE_URL): type the coordinates.',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  centerOnPoint: 'Back to the chosen place',
  boundStationsHint: "Leave empty to see all of the provider's stations",
  allStations: 'All stations',
};

const point: UiCatalogue['point'] = {
  entity: 'charge point',
  tab: 'Charge points',
  addConnector: 'Add connector',
  removeConnector: 'Remove connector',
  connectorPlaceholder: 'Connector {n}',
  needsPlacement: 'To be placed',
  offline: 'Offline',
  move: 'Move',
  moveTitle: 'Move to another station',
  moveHint: 'Charge point "{serial}" is now in station "{station}".',
  moved: 'Moved',
  newKey: 'New key',
  newKeyConfirm:
    'Issue a new OCPP key for charge point "{serial}"? The old key stops working at once; the charger must reconnect with the new one.',
  sendKey: 'Send new key',
  sendKeyConfirm:
    'Send a new OCPP key to charge point "{serial}"? It keeps its current key until it reconnects with the new one; from then on only the new key works. The key is not shown: nobody needs to type it.',
  keyTitle: 'OCPP key - {serial}',
  keyWarning: 'The key is shown only this once and cannot be viewed again after closing. Copy it now and configure it in the charger.',
  keyUsage:
    'The charger connects with HTTP Basic authentication (OCPP 1.6J, security profile 1/2): the user name is the serial number, the password is the key below.',
  connectionUrl: 'Connection URL',
  basicUser: 'User name',
  basicPassword: 'Password (key)',
  keyDone: 'I have saved the key',
  ratedPowerUnit: 'kW',
};

export { point };
export default station;
