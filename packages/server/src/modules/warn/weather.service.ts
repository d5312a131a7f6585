import type { Config } from '../../config.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Jobs } from '../../lib/jobs.js';
import { fetchForecast, ForecastError, type ForecastDay } from './forecast-client.js';
import { crossings } from './rules.js';
import type { FeedError, FeedStation, WarnRepo } from './warn.repo.js';

/** A job of the `weatherRefresh` queue: a scheduled run (`slot`, its time) or an operator's (`providerIds`). */
export interface WeatherJob {
  slot?: string;
  providerIds?: number[] | 'all';
}

/** Stations this close share one request: 0.1° is about 11 km, the grid of the forecast models. */
const GRID = 10;
/** Requests in flight at once: a few, so a large network does not flood the service. */
const CONCURRENCY = 4;

/** Stations grouped by rounded coordinates and time zone (the days are cut on the zone's clock). */
export function locationsOf(stations: FeedStation[]) {
  const groups = new Map<string, { latitude: number; longitude: number; timeZone: string; stations: FeedStation[] }>();
  for (const s of stations) {
    const latitude = Math.round(s.latitude * GRID) / GRID;
    const longitude = Math.round(s.longitude * GRID) / GRID;
    const key = `${latitude},${longitude},${s.timeZone}`;
    const g = groups.get(key) ?? { latitude, longitude, timeZone: s.timeZone, stations: [] };
    g.stations.push(s);
    groups.set(key, g);
  }
  return [...groups.values()];
}

async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * The forecast feed (issue 17 item 3): every `CSMS_WEATHER_REFRESH_HOURS` the durable queue runs a fetch
 * for every station with coordinates, one request per location; each location's days are stored and the
 * provider's rules applied in one transaction. Each scheduled run first queues the next one (keyed by its
 * time, so several nodes queue it once); a run with failed locations records them for the screen and
 * throws, so that the queue retries it. Without `CSMS_WEATHER_URL` it does nothing.
 */
export function createWeatherFeed({
  repo,
  jobs,
  uow,
  config,
  log,
}: {
  repo: WarnRepo;
  jobs: Pick<Jobs, 'send'>;
  uow: Pick<UnitOfWork, 'run'>;
  config: Pick<Config, 'weatherUrl' | 'weatherRefreshHours' | 'weatherTimeoutMs'>;
  log: { warn: (obj: object, msg: string) => void };
}) {
  const url = config.weatherUrl;
  const intervalMs = config.weatherRefreshHours * 3_600_000;
  const slotOf = (t: number) => Math.floor(t / intervalMs) * intervalMs;

  async function schedule(at: number) {
    await jobs.send('weatherRefresh', { slot: new Date(at).toISOString() } satisfies WeatherJob, { at: new Date(at), key: `slot:${at}` });
    await repo.setFeed({ nextRunAt: new Date(at) });
  }

  /** Applies each station's provider rules to its days; in the caller's transaction. */
  async function judge(stations: FeedStation[], daysOf: (s: FeedStation) => ForecastDay[]) {
    const providers = [...new Set(stations.map((s) => s.providerId))];
    // One judge at a time per provider, each reading the rules committed before it.
    await repo.lockJudging(providers);
    const rules = await repo.thresholds(providers);
    let raised = 0;
    let ended = 0;
    for (const s of stations) {
      const days = daysOf(s);
      const r = await repo.applyCrossings(
        s,
        days.map((d) => d.day),
        crossings(days, rules.get(s.providerId)!),
      );
      raised += r.raised;
      ended += r.ended;
    }
    return { raised, ended };
  }

  /** Fetches and judges the stations of `providerIds` (all: every provider's); records the run for the screen. */
  async function refresh(providerIds: number[] | 'all' = 'all') {
    if (!url) return { stations: 0, locations: 0, failed: 0 };
    const stations = await repo.feedStations(providerIds);
    const locations = locationsOf(stations);
    const started = new Date();
    const failures: FeedError[] = [];
    let done = 0;
    await eachLimited(locations, CONCURRENCY, async (loc) => {
      try {
        const days = await fetchForecast(url, loc, config.weatherTimeoutMs);
        await uow.run(async () => {
          await repo.saveForecast(
            loc.stations.map((s) => s.id),
            days,
            new Date(),
          );
          await judge(loc.stations, () => days);
        });
        done += loc.stations.length;
      } catch (err) {
        const e =
          err instanceof ForecastError
            ? { key: err.key, params: err.params }
            : { key: 'errors.warn.fetchNetwork', params: { reason: String((err as Error)?.message ?? err) } };
        log.warn({ err, latitude: loc.latitude, longitude: loc.longitude }, 'weather: forecast fetch failed');
        failures.push(e);
      }
    });
    await repo.pruneForecasts();
    const first = failures[0];
    const error: FeedError | null = !first
      ? null
      : failures.length === locations.length
        ? first
        : { key: 'errors.warn.fetchPartial', params: { failed: failures.length, total: locations.length, cause: first } };
    await repo.setFeed({
      lastRunAt: started,
      stations: done,
      failedLocations: failures.length,
      ...(error ? { lastError: JSON.stringify(error), lastErrorAt: new Date() } : { lastSuccessAt: started, lastError: null }),
    });
    return { stations: done, locations: locations.length, failed: failures.length };
  }

  return {
    enabled: url !== undefined,
    refresh,
    /** The queue's handler. */
    async run(job: WeatherJob) {
      if (!url) return;
      if (job.slot) {
        const next = slotOf(new Date(job.slot).getTime()) + intervalMs;
        await schedule(next > Date.now() ? next : slotOf(Date.now()) + intervalMs);
      }
      const r = await refresh(job.providerIds ?? 'all');
      if (r.failed > 0) throw new Error(`weather: ${r.failed} of ${r.locations} locations failed (retried by the queue)`);
    },
    /** At start-up: this period's run, unless a node queued it already (the chain of runs goes on from it). */
    async start() {
      if (!url) return;
      const slot = slotOf(Date.now());
      await jobs.send('weatherRefresh', { slot: new Date(slot).toISOString() } satisfies WeatherJob, { key: `slot:${slot}` });
    },
    /** An operator's "fetch now" for the providers in their scope, queued (the request does not wait for the service). */
    async requestNow(providerIds: number[] | 'all') {
      await jobs.send('weatherRefresh', { providerIds } satisfies WeatherJob, {
        key: `now:${JSON.stringify(providerIds)}:${Math.floor(Date.now() / 5000)}`,
      });
    },
    /** The stored forecasts of a provider's stations judged again by its rules (after they change); in the caller's transaction. */
    async rejudge(providerId: number) {
      const stations = await repo.feedStations([providerId]);
      const stored = await repo.storedForecasts(stations.map((s) => s.id));
      return judge(
        stations.filter((s) => stored.has(s.id)),
        (s) => stored.get(s.id) ?? [],
      );
    },
  };
}

export type WeatherFeed = ReturnType<typeof createWeatherFeed>;
