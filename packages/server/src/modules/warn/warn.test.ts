import {
  allMenuPaths,
  api,
  wallClock,
  type StationWeatherDto,
  type WarningDto,
  type WarningRulesDto,
  type WeatherFeedDto,
} from '@csms/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weatherForecast, weatherWarning } from '../../db/schema.js';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { eventually } from '../../../test/ocpp/support.js';
import { startForecastServer } from '../../../test/support/forecast-server.js';
import { insertStation } from '../monitor/monitor.fixtures.js';

/*
 * Warning management (issue 17 item 3) against a stand-in forecast service on loopback (real HTTP,
 * Open-Meteo's reply shape): the scheduled fetch through the job queue, stations grouped by location,
 * the rules raising and ending warnings without duplicates, failures shown on the screen, manual
 * warnings, validation in both languages, and provider scope.
 */
type Reply<T> = { code: number; msg: string; data: T };

const today = (days = 0) => {
  const d = new Date(`${wallClock(new Date(), 'Asia/Shanghai').slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

describe('with the forecast feed on', () => {
  let s: TestServer;
  let admin: string;
  let stand: Awaited<ReturnType<typeof startForecastServer>>;
  /** Two stations 2 km apart (one location) and one far away, of provider 1. */
  let near1: number;
  let near2: number;
  let far: number;

  const post = <T>(ep: { path: string }, body: unknown, lang: 'en' | 'zh' = 'en') =>
    s.call<T>('POST', ep.path, { token: admin, body, lang }) as Promise<Reply<T>>;
  const get = <T>(ep: { path: string }, query: Record<string, string | number> = {}, token = admin) =>
    s.call<T>('GET', `${ep.path}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`, {
      token,
    }) as Promise<Reply<T>>;
  const stationRow = async (id: number) =>
    (await get<{ list: StationWeatherDto[] }>(api.warn.stationWeather, { page: 1, limit: 10, stationId: id })).data.list[0]!;
  const forecastRows = (stationId: number) =>
    s.database.db
      .select()
      .from(weatherWarning)
      .where(and(eq(weatherWarning.stationId, stationId), eq(weatherWarning.source, 'forecast')))
      .orderBy(weatherWarning.day, weatherWarning.kind);

  beforeAll(async () => {
    stand = await startForecastServer();
    s = await startServer({ weatherUrl: stand.url, jobPollSeconds: 0.5, weatherTimeoutMs: 1500 });
    admin = await s.login();
    near1 = (await insertStation(s.database.db, 1, { latitude: 31.2304, longitude: 121.4737 })).id;
    near2 = (await insertStation(s.database.db, 1, { latitude: 31.2412, longitude: 121.4801 })).id;
    far = (await insertStation(s.database.db, 1, { latitude: 45.75, longitude: 126.65 })).id;
    stand.places.set('31.2,121.5', {
      days: [{ temperature_2m_max: 38, weather_code: 2 }, { temperature_2m_max: 41 }, { precipitation_sum: 60, weather_code: 65 }],
    });
    stand.places.set('45.8,126.7', { days: [{ temperature_2m_min: -3, weather_code: 71 }, { wind_speed_10m_max: 90 }, {}] });
  });
  afterAll(async () => {
    await s?.close();
    await stand?.close();
  });

  it('is fetched by the queued job at start-up and again on request, one request per location with Open-Meteo’s parameters', async () => {
    // The start-up run may have found no station yet: an operator's "fetch now" goes through the queue too.
    expect((await post<{ queued: boolean }>(api.warn.refresh, {})).data).toEqual({ queued: true });
    await eventually(async () => (await stationRow(far)).days.length === 3);
    await eventually(async () => (await stationRow(near2)).days.length === 3);
    const q = stand.requests.find((r) => r.get('latitude') === '31.2')!;
    expect(q.get('longitude')).toBe('121.5');
    expect(q.get('daily')).toBe('temperature_2m_max,temperature_2m_min,precipitation_sum,wind_speed_10m_max,weather_code');
    expect(q.get('timezone')).toBe('Asia/Shanghai');
    expect(q.get('forecast_days')).toBe('3');
    // Three stations, two locations: one request each.
    expect(await s.app.weather.refresh()).toEqual({ stations: 3, locations: 2, failed: 0 });
    // From here on the tests drive the feed themselves; the app's own workers stop (letting a run under way
    // finish), so that no queued run (the next slot, a retry of the start-up run) writes between a test's steps.
    await s.app.jobs.stop();
  });

  it('shows each station’s forecast days and the warnings its provider’s default rules raise', async () => {
    const row = await stationRow(near1);
    expect(row.days.map((d) => d.day)).toEqual([today(), today(1), today(2)]);
    expect(row.days[0]).toMatchObject({ tempMaxC: 38, tempMinC: 15, precipitationMm: 0, windMaxKmh: 12, weatherCode: 2 });
    expect(row.fetchedAt).not.toBeNull();
    const warnings = row.warnings.map((w) => [w.kind, w.day, w.level, w.value, w.threshold, w.source, w.state]);
    expect(warnings).toEqual([
      ['heat', today(), 'medium', 38, 35, 'forecast', 'active'],
      ['heat', today(1), 'high', 41, 35, 'forecast', 'active'],
      ['heavyRain', today(2), 'medium', 60, 50, 'forecast', 'active'],
    ]);
    expect((await stationRow(near2)).warnings).toHaveLength(3);
    const farRow = await stationRow(far);
    expect(farRow.warnings.map((w) => [w.kind, w.day, w.level])).toEqual([
      ['frost', today(), 'medium'],
      ['storm', today(1), 'high'],
    ]);
  });

  it('filters the stations by warning kind, level and days, by query and by the search form’s body', async () => {
    const byKind = await get<{ list: StationWeatherDto[]; total: number }>(api.warn.stationWeather, { page: 1, limit: 10, kind: 'frost' });
    expect(byKind.data.list.map((r) => r.stationId)).toEqual([far]);
    const searched = await post<{ list: StationWeatherDto[]; total: number }>(api.warn.searchStationWeather, {
      page: 1,
      limit: 10,
      kind: 'heat',
      level: 'high',
      startDay: today(1),
      endDay: today(1),
    });
    expect(searched.data.list.map((r) => r.stationId).sort()).toEqual([near1, near2].sort());
    expect(searched.data.list[0]!.days.map((d) => d.day)).toEqual([today(1)]);
    const none = await post<{ total: number }>(api.warn.searchStationWeather, { page: 1, limit: 10, kind: 'heat', startDay: today(2) });
    expect(none.data.total).toBe(0);
  });

  it('does not duplicate warnings on a re-run, ends one the forecast no longer crosses and opens the same one again', async () => {
    const first = await forecastRows(near1);
    await s.app.weather.refresh();
    expect(await forecastRows(near1)).toHaveLength(first.length);
    const heat = first.find((w) => w.kind === 'heat' && w.day === today())!;

    stand.places.set('31.2,121.5', { days: [{ temperature_2m_max: 30 }, { temperature_2m_max: 41 }, { precipitation_sum: 60 }] });
    await s.app.weather.refresh();
    const ended = (await forecastRows(near1)).find((w) => w.id === heat.id)!;
    expect(ended.endedAt).not.toBeNull();
    expect(ended.endedBy).toBeNull();
    expect((await stationRow(near1)).warnings.map((w) => w.kind + w.day)).toEqual(['heat' + today(1), 'heavyRain' + today(2)]);

    stand.places.set('31.2,121.5', { days: [{ temperature_2m_max: 39 }, { temperature_2m_max: 41 }, { precipitation_sum: 60 }] });
    await s.app.weather.refresh();
    const again = await forecastRows(near1);
    expect(again).toHaveLength(first.length);
    expect(again.find((w) => w.id === heat.id)).toMatchObject({ endedAt: null, value: 39 });
  });

  it('keeps a forecast warning an operator ended ended', async () => {
    const w = (await forecastRows(near2)).find((x) => x.kind === 'heat' && x.day === today(1))!;
    const r = await post<{ ended: number }>(api.warn.end, { ids: [w.id] });
    expect(r.data).toEqual({ ended: 1 });
    await s.app.weather.refresh();
    const after = (await forecastRows(near2)).find((x) => x.id === w.id)!;
    expect(after.endedAt).not.toBeNull();
    const dto = await get<WarningDto>(api.warn.get, { id: w.id });
    expect(dto.data).toMatchObject({ state: 'ended', endedByName: 'Administrator', source: 'forecast' });
    // A forecast warning is the forecast's: ended, not edited or removed.
    const edit = await post(api.warn.edit, { id: w.id, kind: 'other', level: 'low', day: today() });
    expect(edit.code).toBe(409);
    expect((await post(api.warn.remove, { ids: [w.id] }, 'zh')).msg).toMatch(/天气预报生成/);
    expect((await post(api.warn.end, { ids: [w.id] })).code).toBe(409);
  });

  it('applies saved rules to the stored forecast at once, and refuses thresholds out of bounds naming the field', async () => {
    const saved = await post<WarningRulesDto>(api.warn.saveRules, { heatMaxC: 35, frostMinC: 0, stormWindKmh: 62, heavyRainMm: 70 });
    expect(saved.data).toMatchObject({ providerId: 1, heavyRainMm: 70, isDefault: false, updatedByName: 'Administrator' });
    expect((await stationRow(near1)).warnings.map((w) => w.kind)).not.toContain('heavyRain');
    // A rule turned off (null) raises nothing.
    await post(api.warn.saveRules, { heatMaxC: null, frostMinC: 0, stormWindKmh: 62, heavyRainMm: 70 });
    expect((await stationRow(near1)).warnings).toEqual([]);
    await post(api.warn.saveRules, { heatMaxC: 35, frostMinC: 0, stormWindKmh: 62, heavyRainMm: 50 });
    expect((await stationRow(near1)).warnings.map((w) => w.kind)).toEqual(['heat', 'heat', 'heavyRain']);

    for (const [lang, re] of [
      ['en', /Heat threshold.*60/],
      ['zh', /高温阈值.*60/],
    ] as const) {
      const r = await post<{ field: string }>(api.warn.saveRules, { heatMaxC: 75, frostMinC: 0, stormWindKmh: 62, heavyRainMm: 50 }, lang);
      expect(r.code).toBe(400);
      expect(r.data.field).toBe('heatMaxC');
      expect(r.msg).toMatch(re);
    }
    expect((await get<WarningRulesDto>(api.warn.rules)).data.heatMaxC).toBe(35);
  });

  it('shows a failed location on the screen, keeps its last forecast, and fails the job so that the queue retries it', async () => {
    stand.places.set('45.8,126.7', { status: 503 });
    const before = await stationRow(far);
    await expect(s.app.weather.run({ slot: new Date().toISOString() })).rejects.toThrow(/1 of 2 locations failed/);
    const feed = (await get<WeatherFeedDto>(api.warn.feed)).data;
    expect(feed).toMatchObject({ enabled: true, refreshHours: 3, failedLocations: 1, stations: 2 });
    expect(feed.lastError).toBe('1 of 2 locations failed: The forecast service answered HTTP 503 (Service down)');
    expect(new Date(feed.nextRunAt!).getTime()).toBeGreaterThan(Date.now());
    const zh = (await s.call<WeatherFeedDto>('GET', api.warn.feed.path, { token: admin, lang: 'zh' })).data;
    expect(zh.lastError).toMatch(/HTTP 503/);
    expect(zh.lastError).toMatch(/获取失败/);
    expect((await stationRow(far)).warnings).toEqual(before.warnings);

    stand.places.set('45.8,126.7', { delayMs: 3000 });
    await s.app.weather.refresh();
    expect((await get<WeatherFeedDto>(api.warn.feed)).data.lastError).toMatch(/did not answer within 1.5 s/);

    stand.places.delete('45.8,126.7');
    await s.app.weather.refresh();
    const ok = (await get<WeatherFeedDto>(api.warn.feed)).data;
    expect(ok).toMatchObject({ lastError: null, failedLocations: 0, stations: 3 });
    expect(ok.lastSuccessAt).not.toBeNull();
    // Mild weather now: the far station's forecast warnings ended.
    expect((await stationRow(far)).warnings).toEqual([]);
  });

  it('queues the next run once, however often the job runs', async () => {
    const slot = new Date().toISOString();
    await s.app.weather.run({ slot });
    await s.app.weather.run({ slot });
    const rows = (await s.database.db.execute(
      sql`select count(*)::int as n from pgboss.job where name = 'csms.weatherRefresh' and state = 'created' and data ? 'slot'`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]!.n).toBe(1);
  });

  it('takes manual warnings beside the forecast’s', async () => {
    const r = await post<WarningDto>(api.warn.add, { stationId: far, kind: 'other', level: 'low', day: today(1), note: 'Road flooded' });
    expect(r.data).toMatchObject({ source: 'manual', state: 'active', createdByName: 'Administrator', note: 'Road flooded', value: null });
    expect((await stationRow(far)).warnings.map((w) => w.id)).toContain(r.data.id);
  });

  it('lets a provider’s users see only their providers’ stations and rules', async () => {
    const op = await createOperator(s.database.db, {
      permissions: ['workOrder:warn:list', 'workOrder:warn:query'],
      rolePaths: allMenuPaths,
    });
    const own = (await insertStation(s.database.db, op.providerId, { latitude: 31.23, longitude: 121.47 })).id;
    const token = await s.login(op.user.username, op.user.password);
    const list = await get<{ list: StationWeatherDto[]; total: number }>(api.warn.stationWeather, { page: 1, limit: 50 }, token);
    expect(list.data.list.map((r) => r.stationId)).toEqual([own]);
    expect((await get(api.warn.rules, { providerId: 1 }, token)).code).toBe(404);
    expect((await get<WarningRulesDto>(api.warn.rules, {}, token)).data).toMatchObject({
      providerId: op.providerId,
      isDefault: true,
      heatMaxC: 35,
    });
    const w = (await forecastRows(near1))[0]!;
    expect((await get(api.warn.get, { id: w.id }, token)).code).toBe(404);
    // Its own station was judged by its own (default) rules at the next fetch.
    await s.app.weather.refresh();
    expect(
      (await get<{ list: StationWeatherDto[] }>(api.warn.stationWeather, { page: 1, limit: 50 }, token)).data.list[0]!.warnings,
    ).toHaveLength(3);
  });
});

describe('with the feed off', () => {
  let s: TestServer;
  let admin: string;
  let stationId: number;
  const post = <T>(ep: { path: string }, body: unknown, lang: 'en' | 'zh' = 'en') =>
    s.call<T>('POST', ep.path, { token: admin, body, lang }) as Promise<Reply<T>>;

  beforeAll(async () => {
    s = await startServer();
    admin = await s.login();
    stationId = (await insertStation(s.database.db, 1)).id;
  });
  afterAll(() => s?.close());

  it('says the feed is off, in both languages', async () => {
    const feed = await s.call<WeatherFeedDto>('GET', api.warn.feed.path, { token: admin });
    expect(feed.data).toMatchObject({ enabled: false, lastRunAt: null, nextRunAt: null });
    const en = await post(api.warn.refresh, {});
    expect(en.code).toBe(409);
    expect(en.msg).toMatch(/CSMS_WEATHER_URL/);
    expect((await post(api.warn.refresh, {}, 'zh')).msg).toMatch(/未配置天气预报服务/);
    expect(await s.database.db.select().from(weatherForecast)).toEqual([]);
  });

  it('adds, edits, ends and removes manual warnings', async () => {
    const added = await post<WarningDto>(api.warn.add, { stationId, kind: 'storm', level: 'high', day: today(), note: 'Typhoon' });
    expect(added.code, added.msg).toBe(200);
    expect(added.data).toMatchObject({ kind: 'storm', level: 'high', day: today(), source: 'manual', state: 'active' });
    const edited = await post<WarningDto>(api.warn.edit, {
      id: added.data.id,
      kind: 'heavyRain',
      level: 'medium',
      day: today(1),
      note: '',
    });
    expect(edited.data).toMatchObject({ kind: 'heavyRain', level: 'medium', day: today(1), note: null });
    const list = await s.call<{ list: WarningDto[]; total: number }>(
      'GET',
      `${api.warn.list.path}?page=1&limit=10&source=manual&state=active`,
      {
        token: admin,
      },
    );
    expect(list.data.list.map((w) => w.id)).toEqual([added.data.id]);
    expect((await post<{ ended: number }>(api.warn.end, { ids: [added.data.id] })).data.ended).toBe(1);
    expect((await post(api.warn.edit, { id: added.data.id, kind: 'other', level: 'low', day: today() })).code).toBe(409);
    expect((await post<{ removed: number }>(api.warn.remove, { ids: [added.data.id] })).data.removed).toBe(1);
    expect((await post(api.warn.remove, { ids: [added.data.id] })).code).toBe(404);
  });

  it('names the field at fault in the caller’s language and stores nothing', async () => {
    const far = await post<{ field: string }>(api.warn.add, { stationId, kind: 'heat', level: 'low', day: today(45) }, 'zh');
    expect(far.code).toBe(400);
    expect(far.data.field).toBe('day');
    expect(far.msg).toMatch(/预警日期须在/);
    const kind = await post<{ field: string }>(api.warn.add, { stationId, kind: 'hail', level: 'low', day: today() });
    expect(kind.data.field).toBe('kind');
    expect(kind.msg).toMatch(/Warning type/);
    const missing = await post<{ field: string }>(api.warn.add, { kind: 'heat', level: 'low', day: today() }, 'zh');
    expect(missing.data.field).toBe('stationId');
    expect(missing.msg).toMatch(/场站/);
    expect((await post(api.warn.add, { stationId: 999_999, kind: 'heat', level: 'low', day: today() })).code).toBe(404);
    expect(await s.database.db.select().from(weatherWarning)).toEqual([]);
  });
});
