import { commonApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';

const positive = (v: unknown) => (typeof v === 'number' && v > 0 ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined);

/**
 * Which zone a record list's days are in (the server bounds them, `dayZone`): the station's when
 * the filters name one station or the user has only one, else the default zone.
 */
export function DayZoneNote({ query }: { query: Record<string, unknown> }) {
  const { t } = useTranslation();
  const which = {
    stationId: positive(query.stationId),
    pointId: positive(query.pointId),
    serialNumber: typeof query.serialNumber === 'string' && query.serialNumber ? query.serialNumber : undefined,
  };
  const zone = useQuery({
    queryKey: [commonApi.dayZone.path, which],
    queryFn: ({ signal }) => call(commonApi.dayZone, { query: which }, { signal, silent: true }),
    staleTime: 60_000,
  });
  if (!zone.data) return null;
  const { timeZone, stationName } = zone.data;
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="day-zone">
      {stationName ? t('kit.dayZoneStation', { zone: timeZone, station: stationName }) : t('kit.dayZoneDefault', { zone: timeZone })}
    </Typography.Text>
  );
}
