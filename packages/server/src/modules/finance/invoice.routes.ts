import fs from 'node:fs';
import path from 'node:path';
import { Code, translate, type InvoiceDto, type invoiceApi } from '@csms/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Principal, RequestCtx } from '../../http/context.js';
import { badField, conflict, notFound } from '../../http/errors.js';
import { external, Outcome, type Handlers } from '../../http/mount.js';
import type { DayZone } from '../../lib/day-zone.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { MailError, sendMail, type MailDeps } from '../../lib/mail.js';
import { isUniqueViolation } from '../../lib/scope.js';
import { postSms, type SmsConfig } from '../../lib/sms.js';
import { centsValue } from '../cards/common.js';
import type { InvoiceRepo } from './invoice.repo.js';
import { visibleUpload } from './stored-upload.js';
import { money } from './transfer.repo.js';

interface Deps {
  db: Db;
  repo: InvoiceRepo;
  mail: MailDeps;
  log: FastifyBaseLogger;
  uploadDir: string;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'> & SmsConfig;
  dayZone: DayZone;
}

/**
 * Invoices (issue 18 item 3): applied → issued (with the uploaded PDF; the user is told by mail with it
 * attached, or by SMS through the administrator's SMS webhook) | rejected (the covered records are free
 * again). When the user could not be told, the invoice stays issued and the operator is warned.
 */
export function invoiceRoutes({ db, repo, mail, log, uploadDir, events, columns, config, dayZone }: Deps): Handlers<typeof invoiceApi> {
  const statusWord = (ctx: RequestCtx, s: string) => translate(ctx.lang, `enums.invoiceStatus.${s}`);
  async function invoiceOf(p: Principal, id: number): Promise<InvoiceDto> {
    return (await repo.get(p, id)) ?? Promise.reject(notFound());
  }
  const decided = (ctx: RequestCtx, i: InvoiceDto) =>
    conflict('errors.invoice.decided', { id: i.id, status: statusWord(ctx, i.status) }, 'id');

  /**
   * Text the issued invoice's number and amount to the mobile of its invoice info, through the SMS webhook
   * (`{ to, text, providerId }`, in the caller's language); the warning to show when it was not accepted.
   */
  async function notifySms(ctx: RequestCtx, i: InvoiceDto): Promise<string | undefined> {
    if (!config.smsWebhook) return 'errors.invoice.smsUnavailable';
    const s = await repo.mailSettings(i.providerId);
    try {
      await postSms(config, {
        to: i.mobile,
        text: translate(ctx.lang, 'errors.invoice.smsText', {
          name: i.recipientName,
          id: i.id,
          amount: money(i.amountCents),
          provider: s.name,
        }),
        providerId: i.providerId,
      });
    } catch (err) {
      log.warn({ invoiceId: i.id, err: (err as Error).message }, 'invoice SMS not sent');
      return 'errors.invoice.smsFailed';
    }
    await repo.noticed(i.id);
    return undefined;
  }

  /** Mail the issued invoice with its PDF through the provider's SMTP settings (or text it); the warning to show when it was not sent. */
  async function notify(ctx: RequestCtx, i: InvoiceDto): Promise<string | undefined> {
    if (i.notifyType === 'sms') return notifySms(ctx, i);
    const s = await repo.mailSettings(i.providerId);
    if (!s.mailAccount || !s.mailAuthCode || !s.smtpAddress || !s.smtpPort) return 'errors.invoice.mailNotConfigured';
    try {
      const content = await fs.promises.readFile(path.join(uploadDir, i.fileName!));
      await sendMail(
        mail,
        { host: s.smtpAddress, port: s.smtpPort, user: s.mailAccount, pass: s.mailAuthCode },
        {
          from: s.mailAccount,
          to: i.email,
          subject: translate(ctx.lang, 'errors.invoice.mailSubject', { provider: s.name }),
          text: translate(ctx.lang, 'errors.invoice.mailBody', {
            name: i.recipientName,
            id: i.id,
            amount: money(i.amountCents),
            provider: s.name,
          }),
          attachments: [{ filename: `invoice-${i.id}.pdf`, content, contentType: 'application/pdf' }],
        },
      );
    } catch (err) {
      if (!(err instanceof MailError) && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      log.warn({ invoiceId: i.id, err: err instanceof MailError ? err.kind : 'file missing' }, 'invoice mail not sent');
      return 'errors.invoice.mailFailed';
    }
    await repo.noticed(i.id);
    return undefined;
  }

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, await dayZone.bound(ctx.principal, f), page, limit);
    },
    async get({ query, ctx }) {
      return invoiceOf(ctx.principal, query.id);
    },
    async billable({ query, ctx }) {
      const u = await repo.user(ctx.principal, query.chargeUserId);
      if (!u) throw notFound();
      return repo.billable(ctx.principal, u.id);
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `invoice:chargeUser:${body.chargeUserId}`;
      const u = await repo.user(p, body.chargeUserId);
      if (!u) throw notFound();
      const chargeRecordIds = [...new Set(body.chargeRecordIds)];
      const rechargeIds = [...new Set(body.rechargeIds)];
      const items = await repo.billable(p, u.id, { chargeRecordIds, rechargeIds });
      const has = (kind: string, id: number) => items.some((x) => x.kind === kind && x.refId === id);
      const kindWord = (k: string) => translate(ctx.lang, `enums.invoiceItemKind.${k}`);
      for (const id of chargeRecordIds)
        if (!has('charge', id)) throw badField('chargeRecordIds', 'errors.invoice.itemNotBillable', { kind: kindWord('charge'), id });
      for (const id of rechargeIds)
        if (!has('recharge', id)) throw badField('rechargeIds', 'errors.invoice.itemNotBillable', { kind: kindWord('recharge'), id });
      let id: number;
      try {
        id = await repo.insert(
          {
            providerId: u.providerId,
            chargeUserId: u.id,
            amountCents: items.reduce((s, x) => s + x.amountCents, 0),
            principalType: body.principalType,
            name: body.name,
            taxNumber: body.taxNumber || null,
            recipientName: body.recipientName,
            mobile: body.mobile,
            email: body.email,
            address: body.address || null,
            notifyType: body.notifyType,
            remark: body.remark || null,
            appliedBy: p.userId,
          },
          items,
        );
      } catch (err) {
        // Another request took one of these records between the check and the insert: the unique index refused it.
        if (isUniqueViolation(err)) throw conflict('errors.invoice.concurrent', {}, 'chargeRecordIds');
        throw err;
      }
      audit.operand = `invoice:${id}`;
      return invoiceOf(p, id);
    },
    // Talks to a mail server or the SMS webhook: the state change commits first; the notice follows, and the notice time once it was accepted.
    issue: external(async ({ body, ctx, audit }) => {
      const p = ctx.principal;
      audit.operand = `invoice:${body.id}`;
      const i = await invoiceOf(p, body.id);
      if (i.status !== 'applied') throw decided(ctx, i);
      const file = await visibleUpload(db, p, body.fileName);
      if (!file || file.type !== 'application/pdf') throw badField('fileName', 'errors.invoice.notPdf');
      if (!(await repo.issue(i.id, p.userId, file.fileName))) throw decided(ctx, await invoiceOf(p, i.id));
      const warning = await notify(ctx, await invoiceOf(p, i.id));
      const after = await invoiceOf(p, i.id);
      return warning ? new Outcome(after, Code.WARN, warning) : after;
    }),
    async reject({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `invoice:${body.id}`;
      const i = await invoiceOf(p, body.id);
      if (i.status !== 'applied' || !(await repo.reject(i.id, p.userId, body.reason))) throw decided(ctx, await invoiceOf(p, i.id));
      return invoiceOf(p, i.id);
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...f } = body;
      const filter = await dayZone.bound(p, f);
      const word = (group: string) => (v: unknown) => translate(ctx.lang, `enums.${group}.${String(v)}`);
      type Row = InvoiceDto & Record<string, unknown>;
      const defaults: ExportColumn<Row>[] = [
        { key: 'id' },
        { key: 'status', value: (r) => word('invoiceStatus')(r.status) },
        { key: 'account' },
        { key: 'amountCents', value: (r) => centsValue(r.amountCents) },
        { key: 'itemCount', value: (r) => r.items.length },
        { key: 'principalType', value: (r) => word('invoicePrincipalType')(r.principalType) },
        { key: 'name' },
        { key: 'taxNumber' },
        { key: 'recipientName' },
        { key: 'mobile' },
        { key: 'email' },
        { key: 'address' },
        { key: 'notifyType', value: (r) => word('invoiceNotifyType')(r.notifyType) },
        { key: 'remark' },
        { key: 'rejectReason' },
        { key: 'applyTime' },
        { key: 'noticeTime' },
        { key: 'finishTime' },
        { key: 'operatorName' },
        { key: 'providerName' },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'invoice',
        fileBase: 'invoices',
        format,
        columns: await columns.columnsFor('invoice', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<Row[]>,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
