import { warnApi } from '@csms/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { OnceOpened } from '../../shared/resource/lazy-parts';
import { ResourceTabs } from '../../shared/resource/ResourceTabs';
import { FeedBanner } from './feed-banner';
import { RulesDialog } from './lazy-parts';
import { stationWeatherResource } from './station-weather.resource';
import { warningResource } from './warning.resource';

/**
 * Work orders → Warning management (spec §2 `/workOrder/warnManage`; issue 17 item 3): the feed's state,
 * the stations with their forecast and warnings, the warnings (entered by hand, or raised by the rules),
 * and the rules.
 */
export default function WarnPage() {
  const queryClient = useQueryClient();
  const [rules, setRules] = useState(false);
  // Made once (a new resource would reset an open form); a changed warning shows on the station list too.
  const warnings = useMemo(
    () => warningResource(() => void queryClient.invalidateQueries({ queryKey: [warnApi.searchStationWeather.path] })),
    [queryClient],
  );
  return (
    <div>
      <FeedBanner onRules={() => setRules(true)} />
      <ResourceTabs
        tabs={[
          { key: 'stations', label: 'warn.stationsTab', resource: stationWeatherResource },
          { key: 'warnings', label: 'warn.warningsTab', resource: warnings },
        ]}
      />
      <OnceOpened open={rules}>
        <RulesDialog open={rules} onClose={() => setRules(false)} />
      </OnceOpened>
    </div>
  );
}
