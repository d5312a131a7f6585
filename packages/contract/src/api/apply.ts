import { z } from 'zod';
import { crud, dayFilter, endpoint, optText, phoneNumber } from '../endpoint.js';

/**
 * Applications to join the platform (issue 21; spec §2 `/applyForm`, `/apply/applyRecord`, the
 * applicant management and applicant information pages; §3 provider; §9 validity of 1, 2 or 3 years).
 *
 * A newcomer applies signed out (captcha, the platform's privacy agreement, per-address and
 * per-e-mail limits) and gets a reference number; a platform administrator approves (a new common
 * provider under the super provider with its validity and authorised point count, and its first
 * administrator, whose one-time password is mailed and must be changed at first sign-in) or rejects
 * with a reason, which is mailed. Applications are platform-level: no provider owns one.
 */
export const applyStatuses = ['pending', 'approved', 'rejected'] as const;
export type ApplyStatus = (typeof applyStatuses)[number];

/** `AP` and the application's number, eight digits (as a work order's `WO`). */
export const applyReferenceOf = (id: number) => `AP${String(id).padStart(8, '0')}`;
export const applyReference = z
  .string()
  .trim()
  .regex(/^AP\d{8,}$/);

/** The most charge points or stations an application may name. */
export const APPLY_MAX_COUNT = 100_000;
/** Largest business-licence image accepted from a signed-out applicant, in MB. */
export const APPLY_LICENSE_MAX_MB = 2;

/** Business licence numbers: letters and digits (China's unified social credit code has 18). */
export const licenseNumber = z
  .string()
  .trim()
  .regex(/^[0-9A-Za-z]{6,30}$/);

export const applyCreate = z.object({
  companyName: z.string().trim().min(1).max(100),
  contact: z.string().trim().min(1).max(50),
  phone: phoneNumber,
  email: z.email().max(100),
  licenseNumber,
  /** The stored name that `uploadLicense` answered. */
  licenseImage: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .regex(/^\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}\.[a-z]{3,4}$/),
  address: z.string().trim().min(1).max(255),
  expectedPoints: z.number().int().min(1).max(APPLY_MAX_COUNT),
  expectedStations: z.number().int().min(1).max(APPLY_MAX_COUNT),
  remark: optText(500),
  /** The platform's privacy agreement must be accepted. */
  agreed: z.boolean().refine((v) => v, { message: 'validation.applyAgreement' }),
  code: z.string().trim().max(16).optional(),
  uuid: z.string().max(64).optional(),
});

export const applyDto = z.object({
  id: z.number(),
  referenceNo: z.string(),
  companyName: z.string(),
  contact: z.string(),
  phone: z.string(),
  email: z.string(),
  licenseNumber: z.string(),
  /** A link the console shows the image by (needs a session). */
  licenseImageUrl: z.string(),
  address: z.string(),
  expectedPoints: z.number(),
  expectedStations: z.number(),
  remark: z.string().nullable(),
  status: z.enum(applyStatuses),
  ip: z.string(),
  reviewerName: z.string().nullable(),
  rejectReason: z.string().nullable(),
  /** Set on approval. */
  providerId: z.number().nullable(),
  providerName: z.string().nullable(),
  username: z.string().nullable(),
  validity: z.number().nullable(),
  authCount: z.number().nullable(),
  expirationTime: z.string().nullable(),
  reviewTime: z.string().nullable(),
  createTime: z.string(),
});
export type ApplyDto = z.infer<typeof applyDto>;

export const applyFilter = z.object({
  referenceNo: optText(20),
  /** Company, contact, phone or e-mail. */
  text: optText(100),
  status: z.enum(applyStatuses).optional(),
  startTime: dayFilter,
  endTime: dayFilter,
});

export const applyApprove = z.object({
  id: z.number().int().positive(),
  validity: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  authCount: z.number().int().min(1).max(1_000_000),
  /** The first administrator's sign-in name (unique across the system). */
  username: z
    .string()
    .trim()
    .min(2)
    .max(64)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._@-]*$/),
});

export const applyReject = z.object({
  id: z.number().int().positive(),
  reason: z.string().trim().min(1).max(500),
});

/** What the signed-out form needs: the platform's name and where its privacy agreement is. */
export const applyFormInfo = z.object({
  platformName: z.string(),
  privacyAgreementKey: z.string(),
  captchaEnabled: z.boolean(),
});

export const applySubmitted = z.object({
  referenceNo: z.string(),
  /** False when the confirmation mail could not be sent (the application stands). */
  mailed: z.boolean(),
});

export const applyDecided = z.object({
  application: applyDto,
  /** False when the platform's mail could not be sent. */
  mailed: z.boolean(),
  /** The one-time password, only when the mail carrying it could not be sent: the reviewer passes it on. */
  password: z.string().optional(),
});

const c = crud('apply', 'apply:record', '/web/apply');

export const applyApi = {
  formInfo: endpoint({
    method: 'GET',
    path: c.path('formInfo'),
    access: 'public',
    resource: 'apply',
    data: applyFormInfo,
    summary: 'What the public application form shows: the platform name, its privacy agreement key and whether a captcha is asked',
  }),
  uploadLicense: endpoint({
    method: 'POST',
    path: c.path('uploadLicense'),
    access: 'public',
    resource: 'apply',
    operation: 'upload',
    data: z.object({ fileName: z.string() }),
    summary:
      'The business licence image of a signed-out applicant (multipart `file`, jpg/png, at most 2 MB), limited per address; ' +
      'answers the stored name the application names',
  }),
  submit: endpoint({
    method: 'POST',
    path: c.path('submit'),
    access: 'public',
    resource: 'apply',
    operation: 'applySubmit',
    body: applyCreate,
    data: applySubmitted,
    summary: 'Apply to join the platform (captcha, privacy agreement, limits per address and per e-mail); mails a confirmation',
  }),
  list: c.list(applyFilter, applyDto),
  get: c.get(applyDto),
  approve: c.action('approve', applyApprove, applyDecided, {
    summary: 'Approve a pending application: the provider and its first administrator in one transaction, the one-time password mailed',
  }),
  reject: c.action('reject', applyReject, applyDecided, { summary: 'Reject a pending application with a reason, which is mailed' }),
};
