import { z } from 'zod';
import { crud, endpoint, optText } from '../endpoint.js';

/**
 * Warning management (spec §2 `/workOrder/warnManage`, §7 "Warnings"; issue 17 item 3). Each station's
 * weather for the next days comes from a forecast service the administrator configures
 * (`CSMS_WEATHER_URL`, an Open-Meteo-compatible API), fetched on a schedule; the provider's rules
 * (heat, frost, storm, heavy rain thresholds) raise a warning per station, kind and day the forecast
 * crosses, and end it when a later forecast no longer does. Operators add, edit and remove warnings
 * by hand, with or without the feed.
 */
export const warningKinds = ['heat', 'frost', 'storm', 'heavyRain', 'other'] as const;
export type WarningKind = (typeof warningKinds)[number];

/** Forecast warnings are `medium` where the forecast crosses the threshold, `high` well past it (`WARNING_HIGH_MARGIN`). */
export const warningLevels = ['low', 'medium', 'high'] as const;
export type WarningLevel = (typeof warningLevels)[number];

export const warningSources = ['forecast', 'manual'] as const;
export type WarningSource = (typeof warningSources)[number];

/** `active`: not ended and its day is today or later on the station's clock; `ended`: cleared; `past`: its day is over. */
export const warningStates = ['active', 'ended', 'past'] as const;
export type WarningState = (typeof warningStates)[number];

/** The forecast's kinds, each with its rule's threshold key (`other` is by hand only). */
export const ruleKinds = ['heat', 'frost', 'storm', 'heavyRain'] as const satisfies readonly WarningKind[];
export type RuleKind = (typeof ruleKinds)[number];

/** How far past the threshold a forecast raises a `high` warning instead of `medium`. */
export const WARNING_HIGH_MARGIN: Record<RuleKind, { add?: number; times?: number }> = {
  heat: { add: 5 },
  frost: { add: -5 },
  storm: { add: 25 },
  heavyRain: { times: 2 },
};

/** Days fetched per station. */
export const FORECAST_DAYS = 3;

/**
 * WMO weather interpretation codes (what Open-Meteo's `weather_code` holds), described in words by the
 * vocabulary `enums.weatherCode.<code>`; a code outside this list shows as the number.
 */
export const weatherCodes = [
  0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 77, 80, 81, 82, 85, 86, 95, 96, 99,
] as const;

/** Each rule's threshold, null where the rule is off; bounds keep a typing slip from raising warnings everywhere. */
export const warningRuleBounds = {
  heatMaxC: { min: 25, max: 60 },
  frostMinC: { min: -60, max: 10 },
  stormWindKmh: { min: 20, max: 300 },
  heavyRainMm: { min: 1, max: 1000 },
} as const;

/** What a provider without saved rules gets: 35 °C, 0 °C, 62 km/h (Beaufort 8, gale), 50 mm a day (heavy rain). */
export const defaultWarningRules = { heatMaxC: 35, frostMinC: 0, stormWindKmh: 62, heavyRainMm: 50 } as const;

/** The threshold key of each rule kind. */
export const ruleKeyOf = {
  heat: 'heatMaxC',
  frost: 'frostMinC',
  storm: 'stormWindKmh',
  heavyRain: 'heavyRainMm',
} as const satisfies Record<RuleKind, keyof typeof warningRuleBounds>;

const threshold = (k: keyof typeof warningRuleBounds) => z.number().min(warningRuleBounds[k].min).max(warningRuleBounds[k].max).nullable();

export const warningRulesDto = z.object({
  providerId: z.number(),
  providerName: z.string(),
  heatMaxC: z.number().nullable(),
  frostMinC: z.number().nullable(),
  stormWindKmh: z.number().nullable(),
  heavyRainMm: z.number().nullable(),
  /** The provider has saved none: these are the defaults. */
  isDefault: z.boolean(),
  updatedByName: z.string().nullable(),
  updateTime: z.string().nullable(),
});
export type WarningRulesDto = z.infer<typeof warningRulesDto>;

export const warningRulesSave = z.object({
  /** The provider whose rules these are (a super provider's users choose; others' default to their own). */
  providerId: z.number().int().positive().optional(),
  heatMaxC: threshold('heatMaxC'),
  frostMinC: threshold('frostMinC'),
  stormWindKmh: threshold('stormWindKmh'),
  heavyRainMm: threshold('heavyRainMm'),
});

export const warningDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  stationId: z.number(),
  stationName: z.string(),
  kind: z.enum(warningKinds),
  level: z.enum(warningLevels),
  /** The day it concerns, on the station's clock (`YYYY-MM-DD`). */
  day: z.string(),
  source: z.enum(warningSources),
  state: z.enum(warningStates),
  /** What the forecast gave (°C, km/h or mm by kind) and the rule's threshold it crossed; null for manual warnings. */
  value: z.number().nullable(),
  threshold: z.number().nullable(),
  note: z.string().nullable(),
  createdByName: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
  endedAt: z.string().nullable(),
  /** Who ended it; null when the forecast did (or it has not ended). */
  endedByName: z.string().nullable(),
});
export type WarningDto = z.infer<typeof warningDto>;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const optDay = z.preprocess((v) => (v === '' || v === null ? undefined : v), day.optional());

export const forecastDayDto = z.object({
  day: z.string(),
  tempMaxC: z.number().nullable(),
  tempMinC: z.number().nullable(),
  precipitationMm: z.number().nullable(),
  windMaxKmh: z.number().nullable(),
  weatherCode: z.number().nullable(),
});
export type ForecastDayDto = z.infer<typeof forecastDayDto>;

/** A station with its forecast from today on (its clock) and its active warnings. */
export const stationWeatherDto = z.object({
  stationId: z.number(),
  stationName: z.string(),
  providerId: z.number(),
  providerName: z.string(),
  timeZone: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  /** When its forecast was last fetched; null: never. */
  fetchedAt: z.string().nullable(),
  days: z.array(forecastDayDto),
  warnings: z.array(warningDto),
});
export type StationWeatherDto = z.infer<typeof stationWeatherDto>;

const yes = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? undefined : v),
  z.boolean().optional(),
);

/** The station list's filters: `kind`, `level` and `atRisk` keep stations with such an active warning within the days. */
export const stationWeatherFilter = z.object({
  stationId: z.coerce.number().int().positive().optional(),
  stationName: optText(100),
  providerId: z.coerce.number().int().positive().optional(),
  kind: z.enum(warningKinds).optional(),
  level: z.enum(warningLevels).optional(),
  atRisk: yes,
  startDay: optDay,
  endDay: optDay,
});

export const warningFilter = z.object({
  stationId: z.coerce.number().int().positive().optional(),
  providerId: z.coerce.number().int().positive().optional(),
  kind: z.enum(warningKinds).optional(),
  level: z.enum(warningLevels).optional(),
  source: z.enum(warningSources).optional(),
  state: z.enum(warningStates).optional(),
  startDay: optDay,
  endDay: optDay,
});

const note = z.string().trim().max(500).optional();
export const warningCreate = z.object({
  stationId: z.number().int().positive(),
  kind: z.enum(warningKinds),
  level: z.enum(warningLevels),
  day,
  note,
});
export const warningEdit = warningCreate.omit({ stationId: true }).extend({ id: z.number().int().positive() });

/** The forecast feed: off without `CSMS_WEATHER_URL`; else when it last ran, succeeded or failed, and runs next. */
export const weatherFeedDto = z.object({
  enabled: z.boolean(),
  refreshHours: z.number(),
  lastRunAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  /** Stations given a forecast and locations that failed in the last run. */
  stations: z.number(),
  failedLocations: z.number(),
  nextRunAt: z.string().nullable(),
});
export type WeatherFeedDto = z.infer<typeof weatherFeedDto>;

const resource = 'warn';
const c = crud(resource, 'workOrder:warn', '/web/warn');
const sw = crud('stationWeather', 'workOrder:warn', '/web/warn');

export const warnApi = {
  /** Spec §7's two paths: the station list by query, and the search form's by body. */
  stationWeather: sw.list(stationWeatherFilter, stationWeatherDto, { path: 'getAllStationWeather' }),
  searchStationWeather: sw.search(stationWeatherFilter, stationWeatherDto, { path: 'searchStationWeather' }),
  exportStationWeather: sw.export(stationWeatherFilter, { path: 'exportStationWeather' }),
  feed: endpoint({
    method: 'GET',
    path: c.path('feed'),
    access: c.permi('list'),
    resource,
    data: weatherFeedDto,
    summary: 'Whether the forecast feed is on, and its last fetch, error and next run',
  }),
  refresh: c.action('refresh', z.object({}), z.object({ queued: z.boolean() }), {
    summary: 'Fetches the forecast now (queued), for the stations in the caller’s scope',
  }),
  list: c.list(warningFilter, warningDto),
  get: c.get(warningDto),
  add: c.add(warningCreate, warningDto),
  edit: c.edit(warningEdit, warningDto),
  remove: c.remove(),
  end: c.action('edit', z.object({ ids: z.array(z.number().int().positive()).min(1) }), z.object({ ended: z.number() }), {
    path: 'end',
    operation: 'end',
    summary: 'Ends active warnings (a forecast warning an operator ended is not raised again for that day)',
  }),
  export: c.export(warningFilter),
  rules: endpoint({
    method: 'GET',
    path: c.path('getRules'),
    access: c.permi('list'),
    resource,
    query: z.object({ providerId: z.coerce.number().int().positive().optional() }),
    data: warningRulesDto,
    summary: "A provider's warning rules (the defaults until it saves its own)",
  }),
  saveRules: c.action('rules', warningRulesSave, warningRulesDto, {
    path: 'saveRules',
    operation: 'saveRules',
    summary: "Saves a provider's warning rules and applies them to the stored forecasts",
  }),
};
