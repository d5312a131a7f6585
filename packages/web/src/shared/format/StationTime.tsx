import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { wallClock } from './zone-time';

/**
 * A list cell's instant on its station's wall clock (as the record's detail and bill show it),
 * whatever the browser's zone; hovering names the zone. Nothing for a missing instant.
 */
export function StationTime({ at, zone }: { at: unknown; zone: string }) {
  const { t } = useTranslation();
  if (typeof at !== 'string' || at === '') return null;
  return (
    <Tooltip title={t('common.stationTimeZone', { tz: zone })}>
      <span data-zone={zone}>{wallClock(at, zone)}</span>
    </Tooltip>
  );
}
