import { FORECAST_DAYS } from '@csms/contract';
import { z } from 'zod';

/** One day of a location's forecast, in °C, mm and km/h. */
export interface ForecastDay {
  day: string;
  tempMaxC: number | null;
  tempMinC: number | null;
  precipitationMm: number | null;
  windMaxKmh: number | null;
  weatherCode: number | null;
}

/** Why a fetch failed, as a vocabulary key and its parameters (shown in the reader's language). */
export class ForecastError extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(`${key} ${JSON.stringify(params)}`);
  }
}

export const DAILY_VARIABLES = [
  'temperature_2m_max',
  'temperature_2m_min',
  'precipitation_sum',
  'wind_speed_10m_max',
  'weather_code',
] as const;

const series = z.array(z.number().nullable());
/** Open-Meteo's reply (`daily` arrays aligned with `daily.time`, `daily_units` naming each one's unit). */
const reply = z.object({
  daily: z.object({
    time: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)),
    temperature_2m_max: series,
    temperature_2m_min: series,
    precipitation_sum: series,
    wind_speed_10m_max: series,
    weather_code: series,
  }),
  daily_units: z.record(z.string(), z.string()).optional(),
});

/** The units Open-Meteo may answer in (its `*_unit` parameters), to ours; a server set to other defaults still reads right. */
const toCelsius = (unit: string | undefined) => (unit && /F/.test(unit) ? (v: number) => ((v - 32) * 5) / 9 : (v: number) => v);
const toKmh = (unit: string | undefined) => {
  if (unit === 'm/s' || unit === 'ms') return (v: number) => v * 3.6;
  if (unit === 'mp/h' || unit === 'mph') return (v: number) => v * 1.609344;
  if (unit === 'kn' || unit === 'kt') return (v: number) => v * 1.852;
  return (v: number) => v;
};
const toMm = (unit: string | undefined) => (unit === 'inch' || unit === 'in' ? (v: number) => v * 25.4 : (v: number) => v);
const round1 = (v: number) => Math.round(v * 10) / 10;

/** The request's URL: the configured base with the location, the daily variables, the zone of the days and how many. */
export function forecastUrl(base: string, at: { latitude: number; longitude: number; timeZone: string }): string {
  const u = new URL(base);
  u.searchParams.set('latitude', String(at.latitude));
  u.searchParams.set('longitude', String(at.longitude));
  u.searchParams.set('daily', DAILY_VARIABLES.join(','));
  u.searchParams.set('timezone', at.timeZone);
  u.searchParams.set('forecast_days', String(FORECAST_DAYS));
  return u.toString();
}

/**
 * One location's forecast from an Open-Meteo-compatible service. Throws a ForecastError on a timeout,
 * a network failure, an HTTP error (Open-Meteo's `{ error, reason }` body is quoted) or a reply of
 * another shape.
 */
export async function fetchForecast(
  base: string,
  at: { latitude: number; longitude: number; timeZone: string },
  timeoutMs: number,
): Promise<ForecastDay[]> {
  let res: Response;
  try {
    res = await fetch(forecastUrl(base, at), { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (err) {
    const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError')
      throw new ForecastError('errors.warn.fetchTimeout', { seconds: timeoutMs / 1000 });
    throw new ForecastError('errors.warn.fetchNetwork', { reason: e.cause?.code ?? e.cause?.message ?? e.message ?? 'error' });
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    const e = err as { name?: string; message?: string };
    if (e.name === 'TimeoutError' || e.name === 'AbortError')
      throw new ForecastError('errors.warn.fetchTimeout', { seconds: timeoutMs / 1000 });
    throw new ForecastError('errors.warn.fetchNetwork', { reason: e.message ?? 'error' });
  }
  if (!res.ok) {
    let reason = '';
    try {
      reason = String((JSON.parse(text) as { reason?: unknown }).reason ?? '');
    } catch {
      // Not JSON: the status says enough.
    }
    throw new ForecastError('errors.warn.fetchHttp', { status: reason ? `${res.status} (${reason.slice(0, 200)})` : res.status });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ForecastError('errors.warn.fetchBadReply', { reason: 'not JSON' });
  }
  const parsed = reply.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ForecastError('errors.warn.fetchBadReply', { reason: `${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim() });
  }
  const { daily, daily_units: units = {} } = parsed.data;
  const c = toCelsius(units.temperature_2m_max);
  const cMin = toCelsius(units.temperature_2m_min);
  const k = toKmh(units.wind_speed_10m_max);
  const mm = toMm(units.precipitation_sum);
  const map = (v: number | null | undefined, f: (x: number) => number) => (v === null || v === undefined ? null : round1(f(v)));
  return daily.time.map((day, i) => ({
    day,
    tempMaxC: map(daily.temperature_2m_max[i], c),
    tempMinC: map(daily.temperature_2m_min[i], cMin),
    precipitationMm: map(daily.precipitation_sum[i], mm),
    windMaxKmh: map(daily.wind_speed_10m_max[i], k),
    weatherCode: daily.weather_code[i] ?? null,
  }));
}
