import { translate, type Lang, type StationWeatherDto, type WarningDto, type warnApi, type WeatherFeedDto } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Principal } from '../../http/context.js';
import { badField, conflict, notFound } from '../../http/errors.js';
import { external, type Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import type { FeedError, WarnRepo } from './warn.repo.js';
import type { WeatherFeed } from './weather.service.js';

interface Deps {
  repo: WarnRepo;
  weather: WeatherFeed;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows' | 'weatherRefreshHours'>;
}

/** A manual warning's day: from a week ago (recording what happened) to a month ahead, on the station's clock. */
const DAYS_BACK = 7;
const DAYS_AHEAD = 30;
const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** The feed's stored error in the reader's language (a partial failure quotes its first cause). */
export function feedErrorText(lang: Lang, e: FeedError): string {
  const cause = e.params.cause as FeedError | undefined;
  return translate(lang, e.key, cause ? { ...e.params, reason: translate(lang, cause.key, cause.params) } : e.params);
}

/** A provider whose rules the caller may read or change: its own by default. */
function providerOf(p: Principal, providerId: number | undefined) {
  const id = providerId ?? p.providerId;
  if (p.providerIds !== 'all' && !p.providerIds.includes(id)) throw notFound();
  return id;
}

/**
 * Warning management (issue 17 item 3): the stations with their forecast and active warnings, the
 * warnings themselves (manual ones added, edited and removed by hand; any ended), each provider's rules,
 * and the feed's state. Everything is scoped to the caller's providers and bound stations.
 */
export function warnRoutes({ repo, weather, events, columns, config }: Deps): Handlers<typeof warnApi> {
  async function manualDay(stationId: number, day: string) {
    const today = await repo.todayAt(stationId);
    if (day < addDays(today, -DAYS_BACK) || day > addDays(today, DAYS_AHEAD)) throw badField('day', 'errors.warn.dayOutOfRange');
  }
  async function visible(p: Principal, ids: number[]) {
    const unique = [...new Set(ids)];
    const rows = await repo.some(p, unique);
    if (rows.length !== unique.length) throw notFound();
    return rows;
  }

  const warningColumns = (lang: Lang): ExportColumn<WarningDto & Record<string, unknown>>[] => {
    const word = (group: string, v: unknown) => translate(lang, `enums.${group}.${String(v)}`);
    return [
      { key: 'id' },
      { key: 'stationName' },
      { key: 'kind', value: (r) => word('warningKind', r.kind) },
      { key: 'level', value: (r) => word('warningLevel', r.level) },
      { key: 'day' },
      { key: 'source', value: (r) => word('warningSource', r.source) },
      { key: 'state', value: (r) => word('warningState', r.state) },
      { key: 'value' },
      { key: 'threshold' },
      { key: 'note' },
      { key: 'createdByName' },
      { key: 'createTime' },
      { key: 'endedAt' },
      { key: 'endedByName' },
      { key: 'providerName' },
    ];
  };

  return {
    async stationWeather({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.stationWeather(ctx.principal, f, page, limit);
    },
    async searchStationWeather({ body, ctx }) {
      const { page, limit, ...f } = body;
      return repo.stationWeather(ctx.principal, f, page, limit);
    },
    async exportStationWeather({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...f } = body;
      const lang = ctx.lang;
      type Line = Record<string, unknown>;
      const defaults: ExportColumn<Line>[] = [
        { key: 'stationName' },
        { key: 'day' },
        {
          key: 'weatherCode',
          value: (r) =>
            r.weatherCode === null || r.weatherCode === undefined ? '' : translate(lang, `enums.weatherCode.${String(r.weatherCode)}`),
        },
        { key: 'tempMaxC' },
        { key: 'tempMinC' },
        { key: 'precipitationMm' },
        { key: 'windMaxKmh' },
        { key: 'warnings' },
        { key: 'fetchedAt' },
        { key: 'providerName' },
      ];
      // One line per station and day; a station without a forecast is one line without a day.
      const lines = (s: StationWeatherDto): Line[] => {
        const base = { id: s.stationId, stationName: s.stationName, providerName: s.providerName, fetchedAt: s.fetchedAt };
        const warned = (day: string | undefined) =>
          s.warnings
            .filter((w) => day === undefined || w.day === day)
            .map((w) => `${translate(lang, `enums.warningKind.${w.kind}`)} (${translate(lang, `enums.warningLevel.${w.level}`)})`)
            .join(', ');
        if (s.days.length === 0) return [{ ...base, warnings: warned(undefined) }];
        return s.days.map((d) => ({ ...base, ...d, warnings: warned(d.day) }));
      };
      await streamExport(reply, {
        lang,
        resource: 'stationWeather',
        fileBase: 'station-weather',
        format,
        columns: await columns.columnsFor('stationWeather', defaults, ctx),
        total: await repo.stationWeatherCount(p, f),
        batches: (async function* () {
          for await (const batch of keysetBatches((after, size) =>
            repo.stationWeatherPage(p, f, after, size).then((rows) => rows.map((r) => ({ ...r, id: r.stationId }))),
          ))
            yield batch.flatMap(lines);
        })(),
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
    async feed({ ctx }) {
      const f = await repo.feed();
      const dto: WeatherFeedDto = {
        ...f,
        enabled: weather.enabled,
        refreshHours: config.weatherRefreshHours,
        lastError: f.lastError ? feedErrorText(ctx.lang, f.lastError) : null,
        nextRunAt: weather.enabled ? f.nextRunAt : null,
      };
      return dto;
    },
    // The queue's insert goes through the pool, outside the request's transaction (which holds PGlite's one connection).
    refresh: external(async ({ ctx, audit }) => {
      if (!weather.enabled) throw conflict('errors.warn.feedOff');
      audit.operand = 'weatherFeed';
      await weather.requestNow(ctx.principal.providerIds);
      return { queued: true };
    }),

    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      const w = await repo.get(ctx.principal, query.id);
      if (!w) throw notFound();
      return w;
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      const s = await repo.stationInScope(p, body.stationId);
      if (!s) throw notFound();
      await manualDay(s.id, body.day);
      const id = await repo.insert({
        providerId: s.providerId,
        stationId: s.id,
        kind: body.kind,
        level: body.level,
        day: body.day,
        source: 'manual',
        note: body.note || null,
        createdBy: p.userId,
      });
      audit.operand = `warning:${id}`;
      return (await repo.get(p, id))!;
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const w = await repo.get(p, body.id);
      if (!w) throw notFound();
      audit.operand = `warning:${w.id}`;
      if (w.source !== 'manual') throw conflict('errors.warn.forecastReadOnly', { id: w.id }, 'id');
      if (w.endedAt) throw conflict('errors.warn.alreadyEnded', { id: w.id }, 'id');
      await manualDay(w.stationId, body.day);
      await repo.update(w.id, { kind: body.kind, level: body.level, day: body.day, note: body.note || null });
      return (await repo.get(p, w.id))!;
    },
    async remove({ body, ctx, audit }) {
      const p = ctx.principal;
      const rows = await visible(p, body.ids);
      audit.operand = `warning:${rows.map((r) => r.id).join(',')}`;
      const forecast = rows.find((r) => r.source !== 'manual');
      if (forecast) throw conflict('errors.warn.forecastReadOnly', { id: forecast.id }, 'ids');
      const removed = await repo.remove(rows.map((r) => r.id));
      return { removed };
    },
    async end({ body, ctx, audit }) {
      const p = ctx.principal;
      const rows = await visible(p, body.ids);
      audit.operand = `warning:${rows.map((r) => r.id).join(',')}`;
      const open = rows.filter((r) => r.endedAt === null);
      if (open.length === 0) throw conflict('errors.warn.alreadyEnded', { id: rows[0]!.id }, 'ids');
      const ended = await repo.end(
        open.map((r) => r.id),
        p.userId,
      );
      return { ended };
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...f } = body;
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'warn',
        fileBase: 'warnings',
        format,
        columns: await columns.columnsFor('warn', warningColumns(ctx.lang), ctx),
        total: await repo.count(p, f),
        batches: keysetBatches((after, size) => repo.page(p, f, after, size)) as AsyncIterable<(WarningDto & Record<string, unknown>)[]>,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },

    async rules({ query, ctx }) {
      const r = await repo.rules(providerOf(ctx.principal, query.providerId));
      if (!r) throw notFound();
      return r;
    },
    async saveRules({ body, ctx, audit }) {
      const p = ctx.principal;
      const providerId = providerOf(p, body.providerId);
      audit.operand = `warnRule:${providerId}`;
      if (!(await repo.rules(providerId))) throw notFound();
      const { providerId: _given, ...t } = body;
      await repo.saveRules(providerId, t, p.userId);
      // The stored forecasts answer to the new thresholds at once, not at the next fetch.
      await weather.rejudge(providerId);
      return (await repo.rules(providerId))!;
    },
  };
}
