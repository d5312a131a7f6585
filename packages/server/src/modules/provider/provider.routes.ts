import fs from 'node:fs';
import path from 'node:path';
import { Code, translate, type Lang, type providerApi } from '@csms/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, badField, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/context.js';
import { API_PREFIX, external, type Handlers } from '../../http/mount.js';
import { canSeeProvider } from '../../lib/scope.js';
import { MailError, sendMail, type MailDeps } from '../../lib/mail.js';
import { cleanRichText, imagesOf, sanitizeRichText } from '../../lib/rich-text.js';
import { fileHeaders } from '../../lib/stored-files.js';
import { storedFileNameOf, type ImageField, type StoredImages } from '../../lib/stored-images.js';
import type { ProviderRepo } from './provider.repo.js';

const blank = (v: string | undefined) => (v === undefined || v === '' ? null : v);
const yearsFromNow = (years: number) => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d;
};
const superOnly = () => new AppError(Code.FORBIDDEN, 'errors.provider.superOnly');

interface Deps {
  repo: ProviderRepo;
  /** The outbound guard the SMTP address goes through, and connection limits. */
  mail: MailDeps;
  log: FastifyBaseLogger;
  images: StoredImages;
  /** Where uploads are stored (`$CSMS_DATA_DIR/uploads`): the agreement pages' images are served from it. */
  uploadDir: string;
}

const LOGO: ImageField = { field: 'logoPath', key: 'errors.upload.logoInvalid' };

export function providerRoutes({ repo, mail, log, images, uploadDir }: Deps): Handlers<typeof providerApi> {
  const isSuper = (p: Principal) => p.providerType === 'super';

  /** The agreements as stored: allow-listed HTML whose images are stored images the caller may see. */
  async function agreements(p: Principal, lang: Lang, body: { disclaimer?: string | undefined; privacyAgreement?: string | undefined }) {
    const at = (field: string) => ({ resource: 'provider', field });
    return {
      disclaimer: await cleanRichText({ images, lang }, p, body.disclaimer, at('disclaimer')),
      privacyAgreement: await cleanRichText({ images, lang }, p, body.privacyAgreement, at('privacyAgreement')),
    };
  }
  /** Where the public pages fetch an image of a provider's agreements (the stored URL needs a session). */
  const publicImage = (key: string) => (name: string) =>
    `${API_PREFIX}/web/getProviderAgreement/image?key=${key}&resource=${encodeURIComponent(name)}`;

  /** An SMTP address typed as an internal IP (or localhost) is refused at once; names are checked when mail is sent. */
  function checkSmtpAddress(host: string, port: number) {
    if (mail.outbound.refusedLiteral(host, port)) throw badField('smtpAddress', 'errors.provider.smtpInternal');
  }

  return {
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `provider:${body.providerName}`;
      if (!isSuper(p)) throw superOnly();
      if (!canSeeProvider(p, body.parentId) || !(await repo.get(p, body.parentId))) throw notFound();
      checkSmtpAddress(body.smtpAddress, body.smtpPort);
      await images.check(p, body.logoPath, LOGO);
      const texts = await agreements(p, ctx.lang, body);
      const id = await repo.insert({
        name: body.providerName,
        type: 'common',
        parentId: body.parentId,
        email: blank(body.email),
        contact: blank(body.contact),
        phone: blank(body.phone),
        expiresAt: yearsFromNow(body.expiration),
        authCount: body.authCount ?? 0,
        logoPath: blank(body.logoPath),
        ...texts,
        mailAccount: body.mailAccount,
        mailAuthCode: body.mailAuthCode,
        smtpAddress: body.smtpAddress,
        smtpPort: body.smtpPort,
        autoLocalListSync: body.autoLocalListSync ?? false,
      });
      audit.operand = `provider:${id}:${body.providerName}`;
      return (await repo.get(p, id))!;
    },
    async search({ body, ctx }) {
      const { page, limit, ...filter } = body;
      return repo.list(ctx.principal, filter, page, limit);
    },
    async get({ query, ctx }) {
      return (await repo.get(ctx.principal, query.id)) ?? Promise.reject(notFound());
    },
    async edit({ body, ctx, audit }) {
      const p = ctx.principal;
      const current = await repo.get(p, body.id);
      if (!current) throw notFound();
      audit.operand = `provider:${body.id}:${current.providerName}`;
      const parentChanges = body.parentId !== undefined && body.parentId !== current.parentId;
      const authCountChanges = body.authCount !== undefined && body.authCount !== current.authCount;
      // Validity, licences and place in the tree are what a provider pays for: only the super provider sets them.
      if ((body.expiration !== undefined || parentChanges || authCountChanges) && !isSuper(p)) throw superOnly();
      if (current.providerType === 'super' && (body.expiration !== undefined || parentChanges)) {
        throw new AppError(Code.CONFLICT, 'errors.provider.superLocked');
      }
      checkSmtpAddress(body.smtpAddress, body.smtpPort);
      // The stored authorization code goes only to the server it was entered for: whoever points the
      // settings at another server (or account) types it again, else a test mail would hand it over.
      const mailMoves =
        body.smtpAddress !== current.smtpAddress || body.smtpPort !== current.smtpPort || body.mailAccount !== current.mailAccount;
      if (mailMoves && !body.mailAuthCode && current.mailAuthCodeMasked)
        throw badField('mailAuthCode', 'errors.provider.mailAuthCodeAgain');
      // A logo stored before this rule stays until it is changed.
      if (blank(body.logoPath) !== current.logoPath) await images.check(p, body.logoPath, LOGO);
      const texts = await agreements(p, ctx.lang, body);
      if (parentChanges) {
        if (!(await repo.get(p, body.parentId!))) throw notFound();
        if ((await repo.subtree(body.id)).includes(body.parentId!))
          throw new AppError(Code.CONFLICT, 'errors.provider.parentInvalid', {}, 'parentId');
      }
      await repo.update(p, body.id, {
        name: body.providerName,
        ...(parentChanges ? { parentId: body.parentId! } : {}),
        email: blank(body.email),
        contact: blank(body.contact),
        phone: blank(body.phone),
        ...(body.expiration !== undefined ? { expiresAt: yearsFromNow(body.expiration) } : {}),
        ...(body.authCount !== undefined ? { authCount: body.authCount } : {}),
        logoPath: blank(body.logoPath),
        ...texts,
        mailAccount: body.mailAccount,
        ...(body.mailAuthCode ? { mailAuthCode: body.mailAuthCode } : {}),
        smtpAddress: body.smtpAddress,
        smtpPort: body.smtpPort,
        ...(body.autoLocalListSync !== undefined ? { autoLocalListSync: body.autoLocalListSync } : {}),
      });
      return (await repo.get(p, body.id))!;
    },
    async options({ query, ctx }) {
      return repo.options(ctx.principal, query.providerName, query);
    },
    async agreement({ query }) {
      const r = await repo.agreement(query.key);
      if (!r) throw notFound();
      const logo = r.logoPath ? storedFileNameOf(r.logoPath) : null;
      const image = publicImage(query.key);
      // Sanitised again on the way out: a text stored before the allow-list, or by hand, is shown through it too.
      return { providerName: r.providerName, logoPath: logo ? image(logo) : null, content: sanitizeRichText(r[query.kind], image) };
    },
    async agreementImage({ query, reply }) {
      const r = await repo.agreement(query.key);
      const named = r && [...imagesOf(r.disclaimer), ...imagesOf(r.privacyAgreement), r.logoPath && storedFileNameOf(r.logoPath)];
      if (!r || !named?.includes(query.resource)) throw notFound();
      const file = await images.find(query.resource);
      const full = file && path.join(uploadDir, file.fileName);
      if (!file || !full || !fs.existsSync(full)) throw notFound();
      reply.headers(fileHeaders(file)).send(fs.createReadStream(full));
    },

    // Talks to a mail server: no transaction is held open meanwhile; the system-log row is written first.
    testMail: external(async ({ body, ctx, audit }) => {
      const row = await repo.row(ctx.principal, body.id);
      if (!row) throw notFound();
      audit.operand = `provider:${row.id}:${row.name}`;
      const { mailAccount, mailAuthCode, smtpAddress, smtpPort } = row;
      if (!mailAccount || !mailAuthCode || !smtpAddress || !smtpPort)
        throw new AppError(Code.CONFLICT, 'errors.provider.mailNotConfigured');
      try {
        const { messageId } = await sendMail(
          mail,
          { host: smtpAddress, port: smtpPort, user: mailAccount, pass: mailAuthCode },
          {
            from: mailAccount,
            to: body.to,
            subject: translate(ctx.lang, 'errors.provider.mailSubject', { name: row.name }),
            text: translate(ctx.lang, 'errors.provider.mailBody', { name: row.name }),
          },
        );
        return { accepted: true, messageId };
      } catch (err) {
        if (!(err instanceof MailError)) throw err;
        // The operator learns only which of three things went wrong; what the network or the peer said stays here.
        log.warn({ providerId: row.id, host: smtpAddress, port: smtpPort, kind: err.kind, detail: err.detail }, 'test mail failed');
        const key = { unreachable: 'mailUnreachable', auth: 'mailAuth', rejected: 'mailRejected' }[err.kind];
        throw new AppError(Code.CONFLICT, `errors.provider.${key}`);
      }
    }),
  };
}
