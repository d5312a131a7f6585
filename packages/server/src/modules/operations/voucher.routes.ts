import { Code, translate, VOUCHER_MAX_ISSUE, type voucherApi, type voucherTemplateApi, type VoucherKind } from '@csms/contract';
import type { Config } from '../../config.js';
import type { Principal } from '../../http/context.js';
import { AppError, badField, conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { canSeeProvider, isForeignKeyViolation, isUniqueViolation, withinBinding } from '../../lib/scope.js';
import { voucherOf } from './voucher-terms.js';
import { toTemplateDto, toVoucherDto, type TemplateRow, type VoucherRepo, type VoucherRow } from './voucher.repo.js';

interface Deps {
  repo: VoucherRepo;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
}

type TemplateBody = {
  name: string;
  kind: VoucherKind;
  value: number;
  minBillCents: number;
  stationIds: number[];
  validDays?: number | null | undefined;
  validFrom?: Date | null | undefined;
  validTo?: Date | null | undefined;
};
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A template's terms; fixed dates win over days only when no days are given. */
const termsOf = (b: TemplateBody) => ({
  name: b.name,
  kind: b.kind,
  value: b.value,
  minBillCents: b.minBillCents,
  stationIds: [...new Set(b.stationIds)],
  validDays: b.validDays ?? null,
  validFrom: b.validDays ? null : (b.validFrom ?? null),
  validTo: b.validDays ? null : (b.validTo ?? null),
});

/**
 * A user bound to stations changes no template, nor issues its vouchers, whose vouchers discount
 * sessions elsewhere (see `withinBinding`).
 */
function mayChange(p: Principal, t: { stationIds: number[] }) {
  if (!withinBinding(p, t.stationIds)) throw new AppError(Code.FORBIDDEN, 'errors.voucherTemplate.outsideBinding');
}

/** Voucher templates (issue 19 item 3). */
export function voucherTemplateRoutes({ repo, events, columns, config }: Deps): Handlers<typeof voucherTemplateApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.getTemplate(p, id)) ?? Promise.reject(notFound());
  const reread = async (p: Principal, id: number) => toTemplateDto((await repo.getTemplate(p, id))!);
  const taken = (name: string) => conflict('errors.voucherTemplate.nameTaken', { name }, 'name');
  async function check(p: Principal, providerId: number, b: TemplateBody, exceptId?: number) {
    const ids = [...new Set(b.stationIds)];
    if ((await repo.ownStations(providerId, ids)) !== ids.length)
      throw badField('stationIds', 'errors.voucherTemplate.stationNotOfProvider');
    if (!withinBinding(p, ids)) throw badField('stationIds', 'errors.voucherTemplate.outsideBinding');
    if (await repo.nameTaken(providerId, b.name, exceptId)) throw taken(b.name);
  }
  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.listTemplates(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return toTemplateDto(await mustGet(ctx.principal, query.id));
    },
    async add({ body, ctx, audit }) {
      audit.operand = `voucherTemplate:${body.name}`;
      if (!canSeeProvider(ctx.principal, body.providerId)) throw notFound();
      await check(ctx.principal, body.providerId, body);
      try {
        return await reread(ctx.principal, await repo.insertTemplate({ ...termsOf(body), providerId: body.providerId }));
      } catch (err) {
        throw isUniqueViolation(err) ? taken(body.name) : err;
      }
    },
    async edit({ body, ctx, audit }) {
      const current = await mustGet(ctx.principal, body.id);
      audit.operand = `voucherTemplate:${current.name}`;
      mayChange(ctx.principal, current);
      await check(ctx.principal, current.providerId, body, body.id);
      try {
        await repo.updateTemplate(body.id, termsOf(body));
      } catch (err) {
        throw isUniqueViolation(err) ? taken(body.name) : err;
      }
      return reread(ctx.principal, body.id);
    },
    async remove({ body, ctx, audit }) {
      const found = await repo.visibleTemplates(ctx.principal, body.ids);
      if (found.length !== new Set(body.ids).size) throw notFound();
      found.forEach((t) => mayChange(ctx.principal, t));
      audit.operand = `voucherTemplate:${found.map((t) => t.name).join(',')}`.slice(0, 255);
      const used = await repo.templateIssued(body.ids);
      if (used !== undefined) throw conflict('errors.voucherTemplate.inUse', { name: used });
      try {
        return { removed: await repo.removeTemplates(body.ids) };
      } catch (err) {
        if (isForeignKeyViolation(err)) throw conflict('errors.voucherTemplate.inUse', { name: found[0]?.name ?? '' });
        throw err;
      }
    },
    async options({ query, ctx }) {
      return repo.templateOptions(ctx.principal, query.text, query.limit ?? 50);
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const defaults: ExportColumn<TemplateRow & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'name' },
        { key: 'kind' },
        { key: 'value' },
        { key: 'minBillCents' },
        { key: 'validDays' },
        { key: 'validFrom', value: (r) => iso(r.validFrom) },
        { key: 'validTo', value: (r) => iso(r.validTo) },
        { key: 'issuedCount' },
        { key: 'usedCount' },
        { key: 'providerName' },
        { key: 'updateTime', value: (r) => r.updatedAt.toISOString() },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'voucherTemplate',
        fileBase: 'voucher-templates',
        format,
        columns: await columns.columnsFor('voucherTemplate', defaults, ctx),
        total: await repo.countTemplates(p, filter),
        batches: keysetBatches((after, size) => repo.pageTemplates(p, filter, after, size)) as AsyncIterable<
          (TemplateRow & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}

/** Issued vouchers (issue 19 item 3): issue by hand or to a group, revoke an unused one; used ones are settlement's. */
export function voucherRoutes({ repo, events, columns, config }: Deps): Handlers<typeof voucherApi> {
  const mustGet = async (p: Principal, id: number) => (await repo.getVoucher(p, id)) ?? Promise.reject(notFound());
  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.listVouchers(ctx.principal, f, page, limit);
    },
    async get({ query, ctx }) {
      return toVoucherDto(await mustGet(ctx.principal, query.id));
    },
    async issue({ body, ctx, audit }) {
      const p = ctx.principal;
      const t = await repo.getTemplate(p, body.templateId);
      if (!t) throw notFound();
      audit.operand = `voucher:${t.name}`;
      mayChange(p, t);
      const users = await repo.recipients(t.providerId, body.chargeUserIds ?? [], body.groupId);
      if (users.length === 0) throw badField(body.groupId ? 'groupId' : 'chargeUserIds', 'errors.voucher.noUsers');
      if (users.length > VOUCHER_MAX_ISSUE) throw badField('chargeUserIds', 'errors.voucher.tooMany', { max: VOUCHER_MAX_ISSUE });
      const now = new Date();
      await repo.insertVouchers(users.map((chargeUserId) => voucherOf(t, now, { chargeUserId, issuedBy: p.userId })));
      return { issued: users.length };
    },
    async revoke({ body, ctx, audit }) {
      const v = await mustGet(ctx.principal, body.id);
      audit.operand = `voucher:${v.id}`;
      if (v.status !== 'unused' || !(await repo.revoke(v.id, body.revokeReason))) {
        const now = (await repo.getVoucher(ctx.principal, v.id))!;
        throw conflict('errors.voucher.notUnused', { status: now.status });
      }
      return toVoucherDto((await repo.getVoucher(ctx.principal, v.id))!);
    },
    async choose({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `voucher:${body.voucherId ?? '-'}@${body.transactionId}`;
      const session = await repo.session(p, body.transactionId);
      if (!session) throw notFound();
      if (body.voucherId !== null) {
        const v = await mustGet(p, body.voucherId);
        if (v.chargeUserId !== session.payer) throw badField('voucherId', 'errors.voucher.notPayersVoucher');
        if (v.status !== 'unused')
          throw badField('voucherId', 'errors.voucher.notUsable', { status: translate(ctx.lang, `enums.voucherStatus.${v.status}`) });
      }
      if (!(await repo.choose(session.id, body.voucherId))) throw conflict('errors.voucher.sessionSettled', {}, 'transactionId');
      return { transactionId: session.id, voucherId: body.voucherId };
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...filter } = body;
      const defaults: ExportColumn<VoucherRow & Record<string, unknown>>[] = [
        { key: 'id' },
        { key: 'name' },
        { key: 'account' },
        { key: 'status' },
        { key: 'kind' },
        { key: 'value' },
        { key: 'minBillCents' },
        { key: 'validFrom', value: (r) => r.validFrom.toISOString() },
        { key: 'validUntil', value: (r) => r.validUntil.toISOString() },
        { key: 'issuedByName' },
        { key: 'usedTime', value: (r) => iso(r.usedAt) },
        { key: 'transactionId' },
        { key: 'discountCents' },
        { key: 'revokeReason' },
        { key: 'providerName' },
        { key: 'createTime', value: (r) => r.createdAt.toISOString() },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'voucher',
        fileBase: 'vouchers',
        format,
        columns: await columns.columnsFor('voucher', defaults, ctx),
        total: await repo.countVouchers(p, filter),
        batches: keysetBatches((after, size) => repo.pageVouchers(p, filter, after, size)) as AsyncIterable<
          (VoucherRow & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
