import { statsPeriods, type StatsPeriod } from '@csms/contract';
import { DatePicker, Segmented, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { providerOptions } from '../../shared/options/provider-options';
import { pointLabel, stationOptions, useStationPoints } from '../../shared/options/station-point-options';
import { RemoteSelect } from '../../shared/resource/inputs';
import { readStatsQuery, writeStatsQuery, type StatsQuery } from './stats-query';

const FMT = 'YYYY-MM-DD';
const pickerOf = { day: 'date', week: 'week', month: 'month' } as const;

/** The period of a statistics screen: day, week, month or a custom range, and the day or days it covers. */
export function StatsPeriodBar({
  query,
  onChange,
  children,
}: {
  query: StatsQuery;
  onChange: (q: StatsQuery) => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const setPeriod = (period: StatsPeriod) => onChange({ ...query, period });
  return (
    <Space wrap data-testid="stats-period-bar">
      <Segmented<StatsPeriod>
        value={query.period}
        onChange={setPeriod}
        options={statsPeriods.map((p) => ({ value: p, label: t(`enums.statsPeriod.${p}`) }))}
        data-testid="stats-period"
        aria-label={t('statsReport.period')}
      />
      {query.period === 'custom' ? (
        <DatePicker.RangePicker
          aria-label={t('statsReport.range')}
          value={query.startDate && query.endDate ? [dayjs(query.startDate), dayjs(query.endDate)] : null}
          onChange={(v) => onChange({ ...query, startDate: v?.[0]?.format(FMT) ?? undefined, endDate: v?.[1]?.format(FMT) ?? undefined })}
          data-testid="stats-range"
        />
      ) : (
        <DatePicker
          picker={pickerOf[query.period]}
          allowClear={false}
          aria-label={t('statsReport.period')}
          value={query.date ? dayjs(query.date) : dayjs()}
          onChange={(v: Dayjs | null) => onChange({ ...query, date: v ? v.format(FMT) : undefined })}
          data-testid="stats-date"
        />
      )}
      {children}
    </Space>
  );
}

/** The URL's statistics query and its setter (the page's state is the URL: back, refresh and links restore it). */
export function useStatsUrl(): [StatsQuery, (q: StatsQuery) => void] {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readStatsQuery(params), [params]);
  return [query, (q) => setParams(writeStatsQuery(q), { replace: true })];
}

/** Narrowing to a provider, a station and (with `points`) one of its charge points. */
export function StatsScope({
  query,
  onChange,
  points = false,
}: {
  query: StatsQuery;
  onChange: (q: StatsQuery) => void;
  points?: boolean;
}) {
  const { t } = useTranslation();
  const { data } = useStationPoints(points ? query.stationId : undefined);
  return (
    <>
      <RemoteSelect
        remote={providerOptions}
        style={{ minWidth: 180 }}
        placeholder={t('statsReport.allProviders')}
        aria-label={t('statsReport.provider')}
        value={query.providerId}
        onChange={(v: number | undefined) => onChange({ ...query, providerId: v ?? undefined, stationId: undefined, pointId: undefined })}
        data-testid="stats-provider"
      />
      <RemoteSelect
        remote={stationOptions}
        style={{ minWidth: 180 }}
        placeholder={t('statsReport.allStations')}
        aria-label={t('statsReport.station')}
        value={query.stationId}
        onChange={(v: number | undefined) => onChange({ ...query, stationId: v ?? undefined, pointId: undefined })}
        data-testid="stats-station"
      />
      {points && (
        <Select
          allowClear
          style={{ minWidth: 200 }}
          disabled={query.stationId === undefined}
          placeholder={t('statsReport.allPoints')}
          aria-label={t('statsReport.point')}
          value={query.pointId}
          options={(data ?? []).map((p) => ({ value: p.id, label: pointLabel(p) }))}
          onChange={(v: number | undefined) => onChange({ ...query, pointId: v ?? undefined })}
          data-testid="stats-point"
        />
      )}
    </>
  );
}
