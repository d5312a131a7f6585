import {
  defaultWarningRules,
  type ForecastDayDto,
  type StationWeatherDto,
  type WarningDto,
  type WarningKind,
  type WarningLevel,
  type WarningRulesDto,
  type WarningSource,
  type WarningState,
  type WeatherFeedDto,
} from '@csms/contract';
import { and, asc, desc, eq, exists, gt, gte, inArray, isNull, lte, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { provider, station, systemUser, weatherFeed, weatherForecast, weatherRule, weatherWarning } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import { stationScope } from '../monitor/scope.js';
import type { ForecastDay } from './forecast-client.js';
import type { Crossing, Thresholds } from './rules.js';

export interface StationWeatherFilter {
  stationId?: number | undefined;
  stationName?: string | undefined;
  providerId?: number | undefined;
  kind?: WarningKind | undefined;
  level?: WarningLevel | undefined;
  atRisk?: boolean | undefined;
  startDay?: string | undefined;
  endDay?: string | undefined;
}

export interface WarningFilter {
  stationId?: number | undefined;
  providerId?: number | undefined;
  kind?: WarningKind | undefined;
  level?: WarningLevel | undefined;
  source?: WarningSource | undefined;
  state?: WarningState | undefined;
  startDay?: string | undefined;
  endDay?: string | undefined;
}

/** A station the feed fetches for. */
export interface FeedStation {
  id: number;
  providerId: number;
  latitude: number;
  longitude: number;
  timeZone: string;
}

/** The feed's last error as stored: a vocabulary key and its parameters. */
export interface FeedError {
  key: string;
  params: Record<string, unknown>;
}

const creator = alias(systemUser, 'creator');
const ender = alias(systemUser, 'ender');
/** The station's today, on its own clock. */
const today = sql`(now() at time zone ${station.timeZone})::date`;
/** Not ended and its day not over: what the station list shows as the station's warnings. */
const activeSql = and(isNull(weatherWarning.endedAt), gte(weatherWarning.day, today))!;
const stateSql = sql<WarningState>`case when ${weatherWarning.endedAt} is not null then 'ended' when ${weatherWarning.day} < ${today} then 'past' else 'active' end`;
const name = (u: { name: PgColumn; username: PgColumn }) => sql<string | null>`coalesce(nullif(${u.name}, ''), ${u.username})`;

const rulesOfRow = (
  r: { heatMaxC: number | null; frostMinC: number | null; stormWindKmh: number | null; heavyRainMm: number | null } | undefined,
): Thresholds =>
  r
    ? { heatMaxC: r.heatMaxC, frostMinC: r.frostMinC, stormWindKmh: r.stormWindKmh, heavyRainMm: r.heavyRainMm }
    : { ...defaultWarningRules };

/**
 * Forecasts, rules and warnings. Reads for operators are scoped to the caller's providers and bound
 * stations; the feed's own writes (a job, no caller) name stations the feed chose.
 */
export function createWarnRepo({ db }: { db: Db }) {
  const warningHead = () =>
    db
      .select({
        w: weatherWarning,
        providerName: provider.name,
        stationName: station.name,
        state: stateSql,
        createdByName: name(creator),
        endedByName: name(ender),
      })
      .from(weatherWarning)
      .innerJoin(station, eq(station.id, weatherWarning.stationId))
      .innerJoin(provider, eq(provider.id, weatherWarning.providerId))
      .leftJoin(creator, eq(creator.id, weatherWarning.createdBy))
      .leftJoin(ender, eq(ender.id, weatherWarning.endedBy));
  type WarningRow = Awaited<ReturnType<ReturnType<typeof warningHead>['where']>>[number];
  const warningDto = ({ w, ...j }: WarningRow): WarningDto => ({
    id: w.id,
    providerId: w.providerId,
    providerName: j.providerName,
    stationId: w.stationId,
    stationName: j.stationName,
    kind: w.kind,
    level: w.level,
    day: w.day,
    source: w.source,
    state: j.state,
    value: w.value,
    threshold: w.threshold,
    note: w.note,
    createdByName: w.createdBy === null ? null : j.createdByName,
    createTime: w.createdAt.toISOString(),
    updateTime: w.updatedAt.toISOString(),
    endedAt: w.endedAt?.toISOString() ?? null,
    endedByName: w.endedBy === null ? null : j.endedByName,
  });
  const warningWhere = (p: Principal, f: WarningFilter, ...more: (SQL | undefined)[]) =>
    and(
      stationScope(p, weatherWarning.providerId, weatherWarning.stationId),
      f.stationId ? eq(weatherWarning.stationId, f.stationId) : undefined,
      f.providerId ? eq(weatherWarning.providerId, f.providerId) : undefined,
      f.kind ? eq(weatherWarning.kind, f.kind) : undefined,
      f.level ? eq(weatherWarning.level, f.level) : undefined,
      f.source ? eq(weatherWarning.source, f.source) : undefined,
      f.state ? sql`${stateSql} = ${f.state}` : undefined,
      f.startDay ? gte(weatherWarning.day, f.startDay) : undefined,
      f.endDay ? lte(weatherWarning.day, f.endDay) : undefined,
      ...more,
    );

  /** Stations in scope matching the filter; `kind`, `level`, `atRisk` need an active warning within the days. */
  const stationWhere = (p: Principal, f: StationWeatherFilter, ...more: (SQL | undefined)[]) => {
    const warned = f.kind || f.level || f.atRisk;
    return and(
      stationScope(p, station.providerId, station.id),
      f.stationId ? eq(station.id, f.stationId) : undefined,
      f.stationName ? lowerLike(station.name, contains(f.stationName)) : undefined,
      f.providerId ? eq(station.providerId, f.providerId) : undefined,
      warned
        ? exists(
            db
              .select({ one: sql`1` })
              .from(weatherWarning)
              .where(
                and(
                  eq(weatherWarning.stationId, station.id),
                  activeSql,
                  f.kind ? eq(weatherWarning.kind, f.kind) : undefined,
                  f.level ? eq(weatherWarning.level, f.level) : undefined,
                  f.startDay ? gte(weatherWarning.day, f.startDay) : undefined,
                  f.endDay ? lte(weatherWarning.day, f.endDay) : undefined,
                ),
              ),
          )
        : undefined,
      ...more,
    );
  };
  const stationHead = () =>
    db
      .select({
        id: station.id,
        name: station.name,
        providerId: station.providerId,
        providerName: provider.name,
        timeZone: station.timeZone,
        latitude: station.latitude,
        longitude: station.longitude,
      })
      .from(station)
      .innerJoin(provider, eq(provider.id, station.providerId));
  type StationRow = Awaited<ReturnType<ReturnType<typeof stationHead>['where']>>[number];

  /** The stations' forecast from today on (or within the days asked) and their active warnings. */
  async function withWeather(p: Principal, rows: StationRow[], f: StationWeatherFilter): Promise<StationWeatherDto[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const days = await db
      .select({ f: weatherForecast })
      .from(weatherForecast)
      .innerJoin(station, eq(station.id, weatherForecast.stationId))
      .where(
        and(
          inArray(weatherForecast.stationId, ids),
          f.startDay ? gte(weatherForecast.day, f.startDay) : gte(weatherForecast.day, today),
          f.endDay ? lte(weatherForecast.day, f.endDay) : undefined,
        ),
      )
      .orderBy(asc(weatherForecast.stationId), asc(weatherForecast.day));
    const warnings = await warningHead()
      .where(warningWhere(p, { startDay: f.startDay, endDay: f.endDay }, inArray(weatherWarning.stationId, ids), activeSql))
      .orderBy(asc(weatherWarning.day), desc(weatherWarning.level), asc(weatherWarning.id));
    const fetched = await db
      .select({ stationId: weatherForecast.stationId, at: sql<string>`max(${weatherForecast.fetchedAt})` })
      .from(weatherForecast)
      .where(inArray(weatherForecast.stationId, ids))
      .groupBy(weatherForecast.stationId);
    return rows.map((r) => ({
      stationId: r.id,
      stationName: r.name,
      providerId: r.providerId,
      providerName: r.providerName,
      timeZone: r.timeZone,
      latitude: r.latitude,
      longitude: r.longitude,
      fetchedAt: (() => {
        const at = fetched.find((x) => x.stationId === r.id)?.at;
        return at ? new Date(at).toISOString() : null;
      })(),
      days: days
        .filter((d) => d.f.stationId === r.id)
        .map(({ f: d }): ForecastDayDto => ({
          day: d.day,
          tempMaxC: d.tempMaxC,
          tempMinC: d.tempMinC,
          precipitationMm: d.precipitationMm,
          windMaxKmh: d.windMaxKmh,
          weatherCode: d.weatherCode,
        })),
      warnings: warnings.filter((w) => w.w.stationId === r.id).map(warningDto),
    }));
  }

  return {
    // ---- the station list ----
    async stationWeather(p: Principal, f: StationWeatherFilter, page: number, limit: number) {
      const cond = stationWhere(p, f);
      const offset = (page - 1) * limit;
      const rows = await stationHead().where(cond).orderBy(asc(station.name), asc(station.id)).limit(limit).offset(offset);
      const counted = db.select({ id: station.id }).from(station).where(cond);
      return { list: await withWeather(p, rows, f), ...(await pageTotal(db, { offset, size: limit, rows: rows.length }, counted)) };
    },
    async stationWeatherCount(p: Principal, f: StationWeatherFilter) {
      const [r] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(station)
        .where(stationWhere(p, f));
      return r?.n ?? 0;
    },
    /** Export batches: stations after `afterId` in id order. */
    async stationWeatherPage(p: Principal, f: StationWeatherFilter, afterId: number, size: number) {
      const rows = await stationHead()
        .where(stationWhere(p, f, gt(station.id, afterId)))
        .orderBy(asc(station.id))
        .limit(size);
      return withWeather(p, rows, f);
    },
    async stationInScope(p: Principal, id: number) {
      const [r] = await db
        .select({ id: station.id, providerId: station.providerId, timeZone: station.timeZone })
        .from(station)
        .where(and(stationScope(p, station.providerId, station.id), eq(station.id, id)))
        .limit(1);
      return r;
    },
    /** The station's today on its own clock (`YYYY-MM-DD`). */
    async todayAt(stationId: number) {
      const [r] = await db
        .select({ d: sql<string>`${today}::text` })
        .from(station)
        .where(eq(station.id, stationId));
      return r!.d;
    },

    // ---- warnings ----
    async list(p: Principal, f: WarningFilter, page: number, limit: number) {
      const cond = warningWhere(p, f);
      const offset = (page - 1) * limit;
      const rows = await warningHead().where(cond).orderBy(desc(weatherWarning.day), desc(weatherWarning.id)).limit(limit).offset(offset);
      const counted = db
        .select({ id: weatherWarning.id })
        .from(weatherWarning)
        .innerJoin(station, eq(station.id, weatherWarning.stationId))
        .where(cond);
      return { list: rows.map(warningDto), ...(await pageTotal(db, { offset, size: limit, rows: rows.length }, counted)) };
    },
    async count(p: Principal, f: WarningFilter) {
      const [r] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(weatherWarning)
        .innerJoin(station, eq(station.id, weatherWarning.stationId))
        .where(warningWhere(p, f));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: WarningFilter, afterId: number, size: number) {
      const rows = await warningHead()
        .where(warningWhere(p, f, gt(weatherWarning.id, afterId)))
        .orderBy(asc(weatherWarning.id))
        .limit(size);
      return rows.map(warningDto);
    },
    async get(p: Principal, id: number) {
      const [row] = await warningHead()
        .where(warningWhere(p, {}, eq(weatherWarning.id, id)))
        .limit(1);
      return row ? warningDto(row) : undefined;
    },
    /** The ids among `ids` the caller may see, with their source and whether they ended. */
    async some(p: Principal, ids: number[]) {
      return db
        .select({ id: weatherWarning.id, source: weatherWarning.source, endedAt: weatherWarning.endedAt })
        .from(weatherWarning)
        .where(and(stationScope(p, weatherWarning.providerId, weatherWarning.stationId), inArray(weatherWarning.id, ids)));
    },
    async insert(row: typeof weatherWarning.$inferInsert) {
      const [r] = await db.insert(weatherWarning).values(row).returning({ id: weatherWarning.id });
      return r!.id;
    },
    async update(id: number, set: Partial<typeof weatherWarning.$inferInsert>) {
      await db
        .update(weatherWarning)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(weatherWarning.id, id));
    },
    async remove(ids: number[]) {
      const r = await db
        .delete(weatherWarning)
        .where(and(inArray(weatherWarning.id, ids), eq(weatherWarning.source, 'manual')))
        .returning({ id: weatherWarning.id });
      return r.length;
    },
    async end(ids: number[], by: number) {
      const r = await db
        .update(weatherWarning)
        .set({ endedAt: new Date(), endedBy: by, updatedAt: new Date() })
        .where(and(inArray(weatherWarning.id, ids), isNull(weatherWarning.endedAt)))
        .returning({ id: weatherWarning.id });
      return r.length;
    },

    // ---- rules ----
    async rules(providerId: number): Promise<WarningRulesDto | undefined> {
      const [r] = await db
        .select({ p: provider, rule: weatherRule, by: name(creator) })
        .from(provider)
        .leftJoin(weatherRule, eq(weatherRule.providerId, provider.id))
        .leftJoin(creator, eq(creator.id, weatherRule.updatedBy))
        .where(eq(provider.id, providerId));
      if (!r) return undefined;
      return {
        providerId: r.p.id,
        providerName: r.p.name,
        ...rulesOfRow(r.rule ?? undefined),
        isDefault: r.rule === null,
        updatedByName: r.rule?.updatedBy ? r.by : null,
        updateTime: r.rule?.updatedAt.toISOString() ?? null,
      };
    },
    async saveRules(providerId: number, t: Thresholds, by: number) {
      await db
        .insert(weatherRule)
        .values({ providerId, ...t, updatedBy: by })
        .onConflictDoUpdate({ target: weatherRule.providerId, set: { ...t, updatedBy: by, updatedAt: new Date() } });
    },
    /** Each provider's thresholds (the defaults for one without a row). */
    /**
     * Waits for, then holds until the transaction ends, the right to judge these providers' forecasts:
     * a refresh that read the rules before a save committed must not write its warnings after the save's.
     * In ascending order, so two judges never wait for each other.
     */
    async lockJudging(providerIds: number[]): Promise<void> {
      for (const id of [...providerIds].sort((a, b) => a - b))
        await db.execute(sql`select pg_advisory_xact_lock(hashtext('weather-judge'), ${id}::int)`);
    },

    async thresholds(providerIds: number[]): Promise<Map<number, Thresholds>> {
      const rows = providerIds.length ? await db.select().from(weatherRule).where(inArray(weatherRule.providerId, providerIds)) : [];
      return new Map(providerIds.map((id) => [id, rulesOfRow(rows.find((r) => r.providerId === id))]));
    },

    // ---- the feed ----
    /** Stations with coordinates (not 0,0 and not the "Unassigned" one), of the providers given or all. */
    async feedStations(providerIds: number[] | 'all'): Promise<FeedStation[]> {
      return db
        .select({
          id: station.id,
          providerId: station.providerId,
          latitude: station.latitude,
          longitude: station.longitude,
          timeZone: station.timeZone,
        })
        .from(station)
        .where(
          and(
            providerIds === 'all' ? undefined : providerIds.length ? inArray(station.providerId, providerIds) : sql`false`,
            eq(station.isUnassigned, false),
            or(ne(station.latitude, 0), ne(station.longitude, 0)),
          ),
        )
        .orderBy(asc(station.id));
    },
    /** A location's forecast stored for each of its stations (the days fetched replace what was there). */
    async saveForecast(stationIds: number[], days: ForecastDay[], at: Date) {
      if (stationIds.length === 0 || days.length === 0) return;
      await db
        .insert(weatherForecast)
        .values(stationIds.flatMap((stationId) => days.map((d) => ({ stationId, ...d, fetchedAt: at }))))
        .onConflictDoUpdate({
          target: [weatherForecast.stationId, weatherForecast.day],
          set: {
            tempMaxC: sql`excluded.temp_max_c`,
            tempMinC: sql`excluded.temp_min_c`,
            precipitationMm: sql`excluded.precipitation_mm`,
            windMaxKmh: sql`excluded.wind_max_kmh`,
            weatherCode: sql`excluded.weather_code`,
            fetchedAt: sql`excluded.fetched_at`,
          },
        });
    },
    /** Forecasts of days long past are of no use to anyone: kept two weeks. */
    async pruneForecasts() {
      await db.delete(weatherForecast).where(sql`${weatherForecast.day} < current_date - 14`);
    },
    /** The stored forecast of stations from their today on, per station. */
    async storedForecasts(stationIds: number[]) {
      if (stationIds.length === 0) return new Map<number, ForecastDay[]>();
      const rows = await db
        .select({ f: weatherForecast })
        .from(weatherForecast)
        .innerJoin(station, eq(station.id, weatherForecast.stationId))
        .where(and(inArray(weatherForecast.stationId, stationIds), gte(weatherForecast.day, today)))
        .orderBy(asc(weatherForecast.day));
      const out = new Map<number, ForecastDay[]>();
      for (const { f } of rows) {
        const { stationId, fetchedAt: _at, ...d } = f;
        out.set(stationId, [...(out.get(stationId) ?? []), d]);
      }
      return out;
    },
    /**
     * The rules' verdict on a station's forecast `days`: each crossing raises (or updates, or opens again)
     * its forecast warning; a forecast warning of those days that is no longer crossed ends. One an
     * operator ended stays ended.
     */
    async applyCrossings(s: { id: number; providerId: number }, days: string[], found: Crossing[]) {
      if (days.length === 0) return { raised: 0, ended: 0 };
      let raised = 0;
      for (const c of found) {
        const r = await db
          .insert(weatherWarning)
          .values({
            providerId: s.providerId,
            stationId: s.id,
            kind: c.kind,
            level: c.level,
            day: c.day,
            source: 'forecast',
            value: c.value,
            threshold: c.threshold,
          })
          .onConflictDoUpdate({
            target: [weatherWarning.stationId, weatherWarning.kind, weatherWarning.day],
            targetWhere: sql`${weatherWarning.source} = 'forecast'`,
            set: {
              level: c.level,
              value: c.value,
              threshold: c.threshold,
              updatedAt: new Date(),
              endedAt: sql`case when ${weatherWarning.endedBy} is null then null else ${weatherWarning.endedAt} end`,
            },
          })
          .returning({ id: weatherWarning.id });
        raised += r.length;
      }
      const crossed = found.map((c) => `${c.kind}@${c.day}`);
      const ended = await db
        .update(weatherWarning)
        .set({ endedAt: new Date(), updatedAt: new Date() })
        .where(
          and(
            eq(weatherWarning.stationId, s.id),
            eq(weatherWarning.source, 'forecast'),
            isNull(weatherWarning.endedAt),
            inArray(weatherWarning.day, days),
            crossed.length ? notInArray(sql`${weatherWarning.kind} || '@' || ${weatherWarning.day}::text`, crossed) : undefined,
          ),
        )
        .returning({ id: weatherWarning.id });
      return { raised, ended: ended.length };
    },
    async feed(): Promise<Omit<WeatherFeedDto, 'enabled' | 'refreshHours' | 'lastError'> & { lastError: FeedError | null }> {
      const [r] = await db.select().from(weatherFeed).where(eq(weatherFeed.id, 1));
      let lastError: FeedError | null = null;
      try {
        lastError = r?.lastError ? (JSON.parse(r.lastError) as FeedError) : null;
      } catch {
        lastError = null;
      }
      const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
      return {
        lastRunAt: iso(r?.lastRunAt),
        lastSuccessAt: iso(r?.lastSuccessAt),
        lastError,
        lastErrorAt: iso(r?.lastErrorAt),
        stations: r?.stations ?? 0,
        failedLocations: r?.failedLocations ?? 0,
        nextRunAt: iso(r?.nextRunAt),
      };
    },
    async setFeed(set: Partial<typeof weatherFeed.$inferInsert>) {
      await db
        .insert(weatherFeed)
        .values({ id: 1, ...set })
        .onConflictDoUpdate({ target: weatherFeed.id, set });
    },
  };
}

export type WarnRepo = ReturnType<typeof createWarnRepo>;
