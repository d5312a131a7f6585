import { ResourcePage } from '../../shared/resource/ResourcePage';
import { reservationResource } from './reservation.resource';

/** Real-time monitoring → Reservations: connectors held for a charge user until an expiry. */
export default function ReservationPage() {
  return <ResourcePage resource={reservationResource} />;
}
