import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { remoteOptionsKey } from '../../shared/resource/inputs';
import { stationOptions } from '../../shared/options/station-point-options';

/** A user's bound stations by name (from the cached station options), or "all" when it is bound to none. */
export function StationNames({ ids }: { ids: number[] | null | undefined }) {
  const { t, i18n } = useTranslation();
  const { data } = useQuery({
    queryKey: remoteOptionsKey(stationOptions.key, i18n.language),
    queryFn: stationOptions.load,
    staleTime: 30_000,
    enabled: (ids?.length ?? 0) > 0,
  });
  if (!ids || ids.length === 0) return <>{t('station.allStations')}</>;
  const names = new Map((data ?? []).map((o) => [o.value, o.label]));
  return <>{ids.map((id) => names.get(id) ?? `#${id}`).join(', ')}</>;
}
