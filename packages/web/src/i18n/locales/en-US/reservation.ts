import type { UiCatalogue } from '../zh-CN';

const reservation: UiCatalogue['reservation'] = {
  entity: 'reservation',
  reserveTitle: 'Reserve a connector',
  sent: 'Sent to the point',
  refused: 'The point answered “{status}”: nothing is reserved',
  cancel: 'Cancel reservation',
  cancelConfirm: 'Cancel reservation {id} on point {serialNumber}?',
  cancelled: 'Reservation cancelled',
  chooseStationFirst: 'Choose the station first',
  choosePointFirst: 'Choose the point first',
  userHint: 'The point holds the connector for a valid card of this user.',
  expiryHint: 'At most 72 hours ahead; the reservation lapses then.',
};
export default reservation;
