import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { wallClock } from '@csms/contract';

/** One day's weather as the stand-in answers it (Open-Meteo's daily variables). */
export interface StandInDay {
  temperature_2m_max: number;
  temperature_2m_min: number;
  precipitation_sum: number;
  wind_speed_10m_max: number;
  weather_code: number;
}

export interface StandInPlace {
  days?: Partial<StandInDay>[];
  /** Answer this HTTP status with Open-Meteo's error body instead. */
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
}

const MILD: StandInDay = { temperature_2m_max: 24, temperature_2m_min: 15, precipitation_sum: 0, wind_speed_10m_max: 12, weather_code: 1 };

/**
 * A stand-in for an Open-Meteo-compatible forecast service on 127.0.0.1 (real HTTP): `places` sets what
 * it answers per location (`"lat,lon"` as requested), mild weather elsewhere; `requests` records each
 * query. The days start today on the clock of the `timezone` asked for, as Open-Meteo's do.
 */
export async function startForecastServer() {
  const places = new Map<string, StandInPlace>();
  const requests: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = url.searchParams;
    requests.push(q);
    const place = places.get(`${q.get('latitude')},${q.get('longitude')}`) ?? {};
    const answer = () => {
      if (url.pathname !== '/v1/forecast' || !q.get('latitude') || !q.get('daily') || !q.get('timezone')) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: true, reason: 'Parameter missing' }));
        return;
      }
      if (place.status) {
        res.writeHead(place.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: true, reason: 'Service down' }));
        return;
      }
      const n = Number(q.get('forecast_days') ?? 7);
      const start = new Date(`${wallClock(new Date(), q.get('timezone')!).slice(0, 10)}T00:00:00Z`);
      const days = Array.from({ length: n }, (_, i) => ({ ...MILD, ...place.days?.[i] }));
      const variables = q.get('daily')!.split(',') as (keyof StandInDay)[];
      const body = {
        latitude: Number(q.get('latitude')),
        longitude: Number(q.get('longitude')),
        generationtime_ms: 0.1,
        utc_offset_seconds: 28800,
        timezone: q.get('timezone'),
        daily_units: {
          time: 'iso8601',
          temperature_2m_max: '°C',
          temperature_2m_min: '°C',
          precipitation_sum: 'mm',
          wind_speed_10m_max: 'km/h',
          weather_code: 'wmo code',
        },
        daily: {
          time: days.map((_, i) => new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10)),
          ...Object.fromEntries(variables.map((v) => [v, days.map((d) => d[v])])),
        },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (place.delayMs) setTimeout(answer, place.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/forecast`,
    places,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
