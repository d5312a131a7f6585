import { ResourcePage } from '../../shared/resource/ResourcePage';
import { maintenanceRecordsResource } from './maintenance-records.resource';

/**
 * Work orders → maintenance records: the components each resolved repair replaced or repaired.
 * The list's filters live in the URL, so `?serialNumber=CP-1` opens one point's records.
 */
export default function MaintenanceRecordsPage() {
  return <ResourcePage resource={maintenanceRecordsResource} />;
}
