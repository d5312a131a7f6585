import { pointResource } from '../../features/point/point.resource';
import { stationResource } from '../../features/station/station.resource';
import { ResourceTabs } from '../../shared/resource/ResourceTabs';

/**
 * Configuration → stations and charge points: one screen, two tabs. Composed here because a
 * feature never imports another (CONVENTIONS §6); a station's "points" action opens the second
 * tab filtered by the URL.
 */
export default function StationManagementPage() {
  return (
    <ResourceTabs
      tabs={[
        { key: 'stations', label: 'station.tab', resource: stationResource },
        { key: 'points', label: 'point.tab', resource: pointResource },
      ]}
    />
  );
}
