import {
  ADMIN_ROLE,
  ALL_PERMISSION,
  APPLY_LICENSE_MAX_MB,
  Code,
  allMenuPaths,
  applyReferenceOf,
  fieldLabel,
  flattenMenus,
  menuTree,
  permissionCatalogue,
  translate,
  type Lang,
  type applyApi,
} from '@csms/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { storedFile } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { AppError, badField, conflict, notFound } from '../../http/errors.js';
import { external, Outcome, type Handlers } from '../../http/mount.js';
import type { DayZone } from '../../lib/day-zone.js';
import { MailError, sendMail, type MailDeps } from '../../lib/mail.js';
import type { PasswordRule } from '../../lib/password-rule.js';
import { hashPassword } from '../../lib/passwords.js';
import { isUniqueViolation } from '../../lib/scope.js';
import { IMAGE_TYPES, storedType } from '../../lib/stored-files.js';
import { receiveUpload } from '../../lib/upload-receive.js';
import type { createCaptchaService } from '../auth/captcha.js';
import type { createApplyLimiter } from './apply-limits.js';
import type { ApplicationRow, ApplyRepo } from './apply.repo.js';

interface Deps {
  db: Db;
  repo: ApplyRepo;
  uow: Pick<UnitOfWork, 'run'>;
  config: Pick<Config, 'captcha' | 'applyMaxPerIp' | 'applyMaxPerEmail' | 'applyMaxUploadsPerIp'>;
  captcha: ReturnType<typeof createCaptchaService>;
  limits: ReturnType<typeof createApplyLimiter>;
  passwords: PasswordRule;
  mail: MailDeps;
  log: FastifyBaseLogger;
  dayZone: DayZone;
  uploadDir: string;
}

const yearsFromNow = (years: number) => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d;
};

/**
 * What an approved operator's first administrator may open: every menu and permission outside the
 * platform's own groups (system and financial management need the admin role; applications are the
 * platform's). Derived from the contract's trees, so new screens join it.
 */
const platformOnly = new Set(
  menuTree.filter((n) => n.role === ADMIN_ROLE || n.path === '/apply').flatMap((n) => flattenMenus([n]).map((m) => m.path)),
);
const operatorPaths = allMenuPaths.filter((p) => !platformOnly.has(p));
const operatorPermissions = permissionCatalogue.filter((g) => !platformOnly.has(g.menu)).flatMap((g) => g.permissions);

/**
 * Applications to join the platform (issue 21). Mail goes out through the platform's (the super
 * provider's) SMTP settings after the change is committed: the handlers that mail are `external`, their
 * system-log row written first, and the change itself runs in its own transaction (`uow.run`).
 */
export function applyRoutes({
  db,
  repo,
  uow,
  config,
  captcha,
  limits,
  passwords,
  mail,
  log,
  dayZone,
  uploadDir,
}: Deps): Handlers<typeof applyApi> {
  async function platformOrRefuse() {
    const platform = await repo.platform();
    if (!platform) throw new AppError(Code.CONFLICT, 'errors.apply.noPlatform');
    return platform;
  }

  /** One mail to an applicant through the platform's settings; false (and a warning in the log) when it cannot go. */
  async function mailApplicant(to: string, subject: string, text: string): Promise<boolean> {
    const platform = await repo.platform();
    const { mailAccount, mailAuthCode, smtpAddress, smtpPort } = platform ?? {};
    if (!mailAccount || !mailAuthCode || !smtpAddress || !smtpPort) {
      log.warn('apply: the platform (super provider) has no mail settings; the applicant was not mailed');
      return false;
    }
    try {
      await sendMail(
        mail,
        { host: smtpAddress, port: smtpPort, user: mailAccount, pass: mailAuthCode },
        { from: mailAccount, to, subject, text },
      );
      return true;
    } catch (err) {
      if (!(err instanceof MailError)) throw err;
      log.warn({ kind: err.kind, detail: err.detail }, 'apply: mail to the applicant failed');
      return false;
    }
  }

  const letter = (
    a: ApplicationRow,
    platform: string,
    kind: 'submitted' | 'approved' | 'rejected',
    params: Record<string, unknown> = {},
  ) => {
    const all = { ...params, referenceNo: applyReferenceOf(a.id), contact: a.contact, companyName: a.companyName, platform };
    return {
      subject: translate(a.lang, `errors.apply.${kind}Subject`, all),
      text: translate(a.lang, `errors.apply.${kind}Body`, all),
    };
  };

  async function checkLicenseImage(name: string, platformId: number) {
    const [file] = await db
      .select()
      .from(storedFile)
      .where(and(eq(storedFile.fileName, name), isNull(storedFile.uploadedBy)))
      .limit(1);
    if (!file || file.providerId !== platformId || !IMAGE_TYPES.has(storedType(file))) {
      throw badField('licenseImage', 'errors.apply.licenseImageInvalid');
    }
  }

  async function pending(p: Parameters<ApplyRepo['row']>[0], id: number, lang: Lang) {
    const row = await repo.row(p, id);
    if (!row) throw notFound();
    if (row.status !== 'pending') {
      throw conflict('errors.apply.alreadyDecided', {
        referenceNo: applyReferenceOf(row.id),
        status: translate(lang, `enums.applyStatus.${row.status}`),
      });
    }
    return row;
  }

  return {
    async formInfo() {
      const platform = await platformOrRefuse();
      return { platformName: platform.name, privacyAgreementKey: platform.agreementKey, captchaEnabled: config.captcha };
    },

    // Streams a file from a signed-out applicant: limited per address, images only, at most 2 MB.
    uploadLicense: external(async ({ req, ctx, audit }) => {
      const platform = await platformOrRefuse();
      const minutes = await limits.upload(ctx.ip, config.applyMaxUploadsPerIp);
      if (minutes > 0) throw new AppError(Code.CONFLICT, 'errors.apply.tooManyUploads', { minutes });
      const { fileName } = await receiveUpload(
        { db, uploadDir },
        req,
        ctx.lang,
        { maxMb: APPLY_LICENSE_MAX_MB, types: ['png', 'jpg', 'jpeg'], badTypeKey: 'errors.upload.badImageType' },
        { providerId: platform.id, uploadedBy: null },
        (name) => (audit.operand = `file:${name}`),
      );
      return { fileName };
    }),

    // Mails the applicant: no transaction is held open meanwhile; the system-log row is written first.
    submit: external(async ({ body, ctx, audit }) => {
      audit.operand = `apply:${body.companyName}`;
      audit.operator = { username: body.email };
      if (config.captcha) {
        if (!body.code) throw badField('code', 'validation.required', { field: fieldLabel(ctx.lang, 'apply', 'code') });
        const verdict = await captcha.check(body.uuid ?? '', body.code);
        if (verdict !== 'ok') throw badField('code', verdict === 'wrong' ? 'errors.auth.captchaWrong' : 'errors.auth.captchaExpired');
      }
      const platform = await platformOrRefuse();
      await checkLicenseImage(body.licenseImage, platform.id);
      const fromAddress = await limits.fromAddress(ctx.ip, config.applyMaxPerIp);
      if (fromAddress > 0) throw new AppError(Code.CONFLICT, 'errors.apply.tooManyFromAddress', { minutes: fromAddress });
      const forEmail = await limits.forEmail(body.email, config.applyMaxPerEmail);
      if (forEmail > 0) throw new AppError(Code.CONFLICT, 'errors.apply.tooManyForEmail', { minutes: forEmail }, 'email');
      let id: number;
      try {
        id = await uow.run(() =>
          repo.insert({
            companyName: body.companyName,
            contact: body.contact,
            phone: body.phone,
            email: body.email,
            licenseNumber: body.licenseNumber,
            licenseImage: body.licenseImage,
            address: body.address,
            expectedPoints: body.expectedPoints,
            expectedStations: body.expectedStations,
            remark: body.remark || null,
            ip: ctx.ip,
            lang: ctx.lang,
          }),
        );
      } catch (err) {
        // The image of another application: each application carries its own.
        if (isUniqueViolation(err)) throw badField('licenseImage', 'errors.apply.licenseImageInvalid');
        throw err;
      }
      audit.operand = `apply:${id}:${body.companyName}`;
      const row = (await repo.byId(id))!;
      const m = letter(row, platform.name, 'submitted');
      const mailed = await mailApplicant(row.email, m.subject, m.text);
      return { referenceNo: applyReferenceOf(id), mailed };
    }),

    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, await dayZone.bound(ctx.principal, f), page, limit);
    },
    async get({ query, ctx }) {
      return (await repo.get(ctx.principal, query.id)) ?? Promise.reject(notFound());
    },

    // Creates the operator in one transaction, then mails the one-time password.
    approve: external(async ({ body, ctx, audit }) => {
      const p = ctx.principal;
      const row = await pending(p, body.id, ctx.lang);
      audit.operand = `apply:${row.id}:${row.companyName}`;
      // Nobody hands out more than they hold (DESIGN.md §5): the new administrator's role is granted by the reviewer.
      if (p.roleKey !== ADMIN_ROLE && !p.permissions.includes(ALL_PERMISSION)) {
        const permission = operatorPermissions.find((x) => !p.permissions.includes(x));
        if (permission) throw new AppError(Code.FORBIDDEN, 'errors.role.notGrantable', { permission });
        const path = operatorPaths.find((x) => !p.rolePaths.includes(x));
        if (path) throw new AppError(Code.FORBIDDEN, 'errors.role.notGrantablePath', { path });
      }
      if (await repo.usernameTaken(body.username)) throw badField('username', 'errors.apply.usernameTaken', { name: body.username });
      const password = passwords.generate();
      const passwordHash = await hashPassword(password);
      const platform = await platformOrRefuse();
      const expiresAt = yearsFromNow(body.validity);
      try {
        await uow.run(async () => {
          // Two reviewers at once: the second waits here and then finds it decided (409), before it creates anything.
          if ((await repo.lock(row.id))?.status !== 'pending') await pending(p, row.id, ctx.lang);
          const phoneFree = !(await repo.phoneTaken(row.phone));
          const created = await repo.createOperator({
            provider: {
              name: row.companyName,
              type: 'common',
              parentId: platform.id,
              email: row.email,
              contact: row.contact,
              phone: row.phone,
              expiresAt,
              authCount: body.authCount,
            },
            roleName: translate(row.lang, 'errors.apply.firstRoleName'),
            rolePaths: operatorPaths,
            permissions: operatorPermissions,
            user: {
              username: body.username,
              passwordHash,
              name: row.contact,
              email: row.email,
              phone: phoneFree ? row.phone : null,
              mustChangePassword: true,
            },
          });
          // Conditional on `pending`: a second reviewer's approval (or a rejection) that came first undoes all of this.
          const decided = await repo.decide(row.id, {
            status: 'approved',
            reviewerId: p.userId,
            providerId: created.providerId,
            username: body.username,
            validity: body.validity,
            authCount: body.authCount,
          });
          if (!decided) await pending(p, row.id, ctx.lang);
        });
      } catch (err) {
        if (isUniqueViolation(err)) {
          // Another approval gave the same phone to its administrator meanwhile.
          const e = err as { constraint?: string; cause?: { constraint?: string } };
          if ((e.constraint ?? e.cause?.constraint) === 'system_user_phone')
            throw conflict('errors.systemUser.phoneTaken', { phone: row.phone });
          throw badField('username', 'errors.apply.usernameTaken', { name: body.username });
        }
        throw err;
      }
      const m = letter(row, platform.name, 'approved', {
        username: body.username,
        password,
        authCount: body.authCount,
        expires: expiresAt.toISOString().slice(0, 10),
      });
      const mailed = await mailApplicant(row.email, m.subject, m.text);
      const application = (await repo.get(p, row.id))!;
      // Without the mail the password exists nowhere else: the reviewer is shown it once, to pass on.
      if (!mailed) return new Outcome({ application, mailed, password }, Code.WARN, 'errors.apply.mailFailed');
      return { application, mailed };
    }),

    reject: external(async ({ body, ctx, audit }) => {
      const p = ctx.principal;
      const row = await pending(p, body.id, ctx.lang);
      audit.operand = `apply:${row.id}:${row.companyName}`;
      await uow.run(async () => {
        const decided = await repo.decide(row.id, { status: 'rejected', reviewerId: p.userId, rejectReason: body.reason });
        if (!decided) await pending(p, row.id, ctx.lang);
      });
      const platform = await platformOrRefuse();
      const m = letter(row, platform.name, 'rejected', { reason: body.reason });
      const mailed = await mailApplicant(row.email, m.subject, m.text);
      const application = (await repo.get(p, row.id))!;
      if (!mailed) return new Outcome({ application, mailed }, Code.WARN, 'errors.apply.mailFailed');
      return { application, mailed };
    }),
  };
}
