import { z } from 'zod';
import { crud, endpoint, optText, phoneNumber } from '../endpoint.js';
import { isTimeZone } from '../zone-time.js';

export const stationStatuses = ['operating', 'maintenance', 'closed'] as const;
export type StationStatus = (typeof stationStatuses)[number];

/** Amenities a station offers (spec §3), shown as checkboxes. */
export const stationAmenities = ['reservation', 'parking', 'wifi', 'food', 'hotWater', 'recreation'] as const;

/** ISO 3166-1 alpha-2, the officially assigned codes. Names come from `Intl.DisplayNames` in the caller's language. */
export const countryCodes = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS ' +
  'MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS ' +
  'RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW ' +
  'TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

/** A country's name in a language (`zh` / `en` or a BCP 47 tag); the code itself when the runtime has no name for it. */
export function countryName(code: string, lang: string): string {
  try {
    return new Intl.DisplayNames([lang === 'zh' ? 'zh-CN' : lang === 'en' ? 'en-US' : lang], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

const hhmm = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/);
/** Empty clears an optional value (the repo stores null). */
const cleared = <T extends z.ZodType>(schema: T) => z.union([z.literal(''), schema]).optional();

export const stationDto = z.object({
  id: z.number(),
  stationName: z.string(),
  providerId: z.number(),
  providerName: z.string(),
  country: z.string(),
  address: z.string(),
  longitude: z.number(),
  latitude: z.number(),
  timeZone: z.string(),
  /** Local opening hours `HH:mm`; both null: always open. */
  openingStart: z.string().nullable(),
  openingEnd: z.string().nullable(),
  isPublic: z.boolean(),
  servicePhone: z.string().nullable(),
  description: z.string().nullable(),
  amenities: z.array(z.enum(stationAmenities)),
  picture: z.string().nullable(),
  guide: z.string().nullable(),
  status: z.enum(stationStatuses),
  /** The station auto-registered chargers join until an operator places them; it cannot be removed. */
  isUnassigned: z.boolean(),
  /** Derived from its points, never stored. */
  pointCount: z.number(),
  connectorCount: z.number(),
  totalPowerW: z.number(),
  createTime: z.string(),
});
export type StationDto = z.infer<typeof stationDto>;

const stationFields = z.object({
  stationName: z.string().trim().min(1).max(100),
  providerId: z.number().int().positive(),
  country: z.enum(countryCodes as [string, ...string[]]),
  address: z.string().trim().min(1).max(255),
  longitude: z.number().min(-180).max(180),
  latitude: z.number().min(-90).max(90),
  /** IANA name; absent means the server's default (`CSMS_TIME_ZONE`). */
  timeZone: z
    .string()
    .trim()
    .max(64)
    .refine((v) => v === '' || isTimeZone(v), { message: 'validation.timeZone' })
    .optional(),
  openingStart: cleared(hhmm),
  openingEnd: cleared(hhmm),
  isPublic: z.boolean().optional(),
  servicePhone: cleared(phoneNumber),
  description: optText(1000),
  amenities: z.array(z.enum(stationAmenities)).max(stationAmenities.length).optional(),
  picture: optText(255),
  guide: optText(10_000),
  status: z.enum(stationStatuses).optional(),
});

/** Opening hours: both or neither. */
function openingBothOrNeither(v: { openingStart?: string | undefined; openingEnd?: string | undefined }, ctx: z.RefinementCtx) {
  const start = Boolean(v.openingStart);
  const end = Boolean(v.openingEnd);
  if (start !== end) ctx.addIssue({ code: 'custom', path: [start ? 'openingEnd' : 'openingStart'], message: 'validation.openingBoth' });
}

export const stationCreate = stationFields.superRefine(openingBothOrNeither);
export const stationEdit = stationFields.extend({ id: z.number().int().positive() }).superRefine(openingBothOrNeither);

export const stationFilter = z.object({
  stationName: optText(100),
  providerId: z.coerce.number().int().positive().optional(),
  status: z.enum(stationStatuses).optional(),
  country: z.enum(countryCodes as [string, ...string[]]).optional(),
});

export const stationOption = z.object({ id: z.number(), stationName: z.string(), providerId: z.number(), providerName: z.string() });
export type StationOption = z.infer<typeof stationOption>;

const resource = 'station';
const c = crud(resource, 'config:station');

/** Stations (locations); `/web/station/*` by convention, the spec's `getStations` for pickers. */
export const stationApi = {
  list: c.list(stationFilter, stationDto),
  get: c.get(stationDto),
  add: c.add(stationCreate, stationDto),
  edit: c.edit(stationEdit, stationDto),
  remove: c.remove(),
  export: c.export(stationFilter),
  options: endpoint({
    method: 'POST',
    path: '/web/getStations',
    access: 'session',
    resource,
    mutation: false,
    body: z.object({ stationName: optText(100), providerId: z.number().int().positive().optional() }),
    data: z.array(stationOption),
    summary: 'Stations the caller can see (provider scope and bound stations), for pickers',
  }),
};
