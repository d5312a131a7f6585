import { z } from 'zod';
import { crud, endpoint, optEmail, optionsWindow, optText, phoneNumber } from '../endpoint.js';

export const providerTypes = ['super', 'common'] as const;
/** Validity a provider is sold for (spec §9): 1, 2 or 3 years from the day it is set. */
export const providerValidityYears = [1, 2, 3] as const;

export const providerDto = z.object({
  id: z.number(),
  providerName: z.string(),
  providerType: z.enum(providerTypes),
  parentId: z.number().nullable(),
  parentName: z.string().nullable(),
  email: z.string().nullable(),
  contact: z.string().nullable(),
  phone: z.string().nullable(),
  /** Null: never expires (the super provider). */
  expirationTime: z.string().nullable(),
  authCount: z.number(),
  logoPath: z.string().nullable(),
  disclaimer: z.string().nullable(),
  privacyAgreement: z.string().nullable(),
  /** The unguessable key of the public agreement pages' links (`/disclaimer/{agreementKey}`). */
  agreementKey: z.string(),
  mailAccount: z.string().nullable(),
  /** The authorization code is never returned: only whether one is stored, and a mask. */
  hasMailAuthCode: z.boolean(),
  mailAuthCodeMasked: z.string().nullable(),
  smtpAddress: z.string().nullable(),
  smtpPort: z.number().nullable(),
  /** Card changes reach the local lists of the provider's online points within a minute (Differential SendLocalList). */
  autoLocalListSync: z.boolean(),
  userCount: z.number(),
  createTime: z.string(),
});
export type ProviderDto = z.infer<typeof providerDto>;

const port = z.coerce.number().int().min(1).max(65535);
const years = z.union(providerValidityYears.map((y) => z.literal(y)) as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>]);

const providerFields = {
  providerName: z.string().trim().min(1).max(100),
  email: optEmail,
  contact: optText(50),
  phone: z.union([z.literal(''), phoneNumber]).optional(),
  authCount: z.number().int().min(0).max(1_000_000).optional(),
  logoPath: optText(255),
  disclaimer: optText(20_000),
  privacyAgreement: optText(20_000),
  mailAccount: z.string().trim().min(1).max(100),
  smtpAddress: z.string().trim().min(1).max(100),
  smtpPort: port,
  /** Absent on edit: unchanged; on add: off. */
  autoLocalListSync: z.boolean().optional(),
};

export const providerCreate = z.object({
  ...providerFields,
  parentId: z.number().int().positive(),
  /** Years of validity from today. */
  expiration: years,
  mailAuthCode: z.string().min(1).max(200),
});

/** Edit: `expiration` renews from today; an absent or empty `mailAuthCode` keeps the stored one. */
export const providerEdit = z.object({
  ...providerFields,
  id: z.number().int().positive(),
  parentId: z.number().int().positive().optional(),
  expiration: years.optional(),
  mailAuthCode: z.string().max(200).optional(),
});

export const providerFilter = z.object({
  providerName: optText(100),
  providerType: z.enum(providerTypes).optional(),
  contact: optText(50),
  phone: optText(30),
});

export const providerOption = z.object({
  id: z.number(),
  providerName: z.string(),
  providerType: z.enum(providerTypes),
  parentId: z.number().nullable(),
});

/** What the server generates: 32 hex digits (128 bits less the UUID's version bits). */
export const agreementKey = z.string().regex(/^[0-9a-f]{32}$/);

const c = crud('provider', 'system:provider', '/web/userManage');

/** Providers (tenants); paths as spec §7 names them, the test-mail verb keeps the area's prefix. */
export const providerApi = {
  add: c.add(providerCreate, providerDto, { path: 'addProvider' }),
  search: c.search(providerFilter, providerDto, { path: 'getConditionProviders' }),
  get: c.get(providerDto, { path: '/web/getProvider' }),
  edit: c.edit(providerEdit, providerDto, { path: 'updateProviderInfo' }),
  options: endpoint({
    method: 'GET',
    path: c.path('getAllProviders'),
    access: 'session',
    resource: 'provider',
    query: z.object({ providerName: optText(100), ...optionsWindow }),
    data: z.array(providerOption),
    summary: 'Providers the caller can see, for selects',
  }),
  agreement: endpoint({
    method: 'GET',
    path: '/web/getProviderAgreement',
    access: 'public',
    resource: 'provider',
    // By the provider's unguessable key, never its id: ids can be walked to list every provider's name.
    query: z.object({ key: agreementKey, kind: z.enum(['disclaimer', 'privacyAgreement']) }),
    /** `content` is sanitised HTML whose images (and `logoPath`) point at `agreementImage`. */
    data: z.object({ providerName: z.string(), logoPath: z.string().nullable(), content: z.string().nullable() }),
    summary: "A provider's disclaimer or privacy agreement, shown to drivers (no sign-in)",
  }),
  /** An image of a provider's agreements or its logo, for the public pages: only files they name. */
  agreementImage: endpoint({
    method: 'GET',
    path: '/web/getProviderAgreement/image',
    access: 'public',
    resource: 'provider',
    query: z.object({ key: agreementKey, resource: z.string().min(1).max(255) }),
    raw: 'download',
  }),
  testMail: c.action(
    'testMail',
    z.object({ id: z.number().int().positive(), to: z.email().max(100) }),
    // The Message-ID the recipient will find in the mail; what the mail server answered stays in the server log.
    z.object({ accepted: z.boolean(), messageId: z.string() }),
    { path: 'testProviderMail', access: c.permi('edit') },
  ),
};
