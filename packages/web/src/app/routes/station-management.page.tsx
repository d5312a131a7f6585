import type { PointDto } from '@csms/contract';
import { lazy, useMemo, useState } from 'react';
import { pointResourceWith } from '../../features/point/point.resource';
import { stationResource } from '../../features/station/station.resource';
import { OnceOpened } from '../../shared/resource/lazy-parts';
import { ResourceTabs } from '../../shared/resource/ResourceTabs';

// A point's maintenance history is fetched when first opened (issue 14 item 7).
const PointMaintenanceDrawer = lazy(() =>
  import('../../features/workOrder/point-maintenance-drawer').then((m) => ({ default: m.PointMaintenanceDrawer })),
);

/**
 * Configuration → stations and charge points: one screen, two tabs. Composed here because a
 * feature never imports another (CONVENTIONS §6); a station's "points" action opens the second
 * tab filtered by the URL, and a point's "maintenance history" the work orders' records of it
 * (a drawer fetched when first opened).
 */
export default function StationManagementPage() {
  const [history, setHistory] = useState<PointDto | null>(null);
  // Made once (a new resource would reset an open form).
  const pointResource = useMemo(() => pointResourceWith({ maintenance: setHistory }), []);
  return (
    <>
      <ResourceTabs
        tabs={[
          { key: 'stations', label: 'station.tab', resource: stationResource },
          { key: 'points', label: 'point.tab', resource: pointResource },
        ]}
      />
      <OnceOpened open={history !== null}>
        <PointMaintenanceDrawer point={history} onClose={() => setHistory(null)} />
      </OnceOpened>
    </>
  );
}
