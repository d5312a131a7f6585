import type { DayZone } from '../../lib/day-zone.js';
import { checkPermi, Code, translate, type ChargeRecordDetail, type chargeRecordApi, type Lang } from '@csms/contract';
import type { Config } from '../../config.js';
import type { AuthedCtx } from '../../http/context.js';
import { conflict, notFound } from '../../http/errors.js';
import { Outcome, type Handlers } from '../../http/mount.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { dollars, enumLabel, hms, kwh } from '../../lib/units.js';
import type { Billing } from '../billing/settle.js';
import type { ChargeRecordExportRow, ChargeRecordRepo } from './chargeRecord.repo.js';

interface Deps {
  repo: ChargeRecordRepo;
  billing: Pick<Billing, 'settle' | 'lines'>;
  events: EventHub;
  config: Pick<Config, 'exportMaxRows'>;
  columns: ExportColumns;
  dayZone: DayZone;
  /** Whether a work order the caller sees names the session: its view of the affected session (issue 17 item 6). */
  inWorkOrder: (p: AuthedCtx['principal'], transactionId: number) => Promise<boolean>;
}

/**
 * Export cells: money in $, energy in kWh, enum values in the caller's words. Every key is a field
 * of the export row (checked below), which is all the export reads from the database.
 */
export function exportColumnsFor(lang: Lang): ExportColumn<ChargeRecordExportRow>[] {
  const label = (kind: string, v: string | null) => enumLabel(lang, kind, v);
  return [
    { key: 'id' },
    { key: 'stationName' },
    { key: 'serialNumber' },
    { key: 'pointName' },
    { key: 'connectorNo' },
    { key: 'account' },
    { key: 'cardNumber' },
    { key: 'idTag' },
    { key: 'authorization', value: (r) => label('chargeAuthorization', r.authorization) },
    { key: 'authReason', value: (r) => label('authorizationReason', r.authReason) },
    { key: 'startType', value: (r) => label('startType', r.startType) },
    { key: 'startTime' },
    { key: 'endTime' },
    { key: 'durationSec', value: (r) => hms(r.durationSec) },
    { key: 'energyWh', value: (r) => kwh(r.energyWh) },
    { key: 'elecFeeCents', value: (r) => dollars(r.elecFeeCents) },
    { key: 'serviceFeeCents', value: (r) => dollars(r.serviceFeeCents) },
    { key: 'reserveFeeCents', value: (r) => dollars(r.reserveFeeCents) },
    { key: 'totalCents', value: (r) => dollars(r.totalCents) },
    // A late Stop's correction of the settled bill (signed); the record's own cost stays as settled.
    { key: 'adjustmentCents', value: (r) => dollars(r.adjustmentCents) },
    { key: 'paidFrom', value: (r) => label('accountKind', r.paidFrom) },
    { key: 'billedAt' },
    { key: 'stopReason', value: (r) => label('stopReason', r.stopReason) },
    { key: 'stopAccount' },
    { key: 'validity', value: (r) => label('chargeValidity', r.validity) },
    { key: 'lateStopAt' },
    { key: 'invalidReason', value: (r) => label('invalidReason', r.invalidReason) },
    { key: 'billingNote', value: (r) => label('billingNote', r.billingNote) },
    { key: 'providerName' },
  ] satisfies (ExportColumn<ChargeRecordExportRow> & { key: keyof ChargeRecordExportRow })[];
}

export function chargeRecordRoutes({
  repo,
  billing,
  events,
  config,
  columns,
  dayZone,
  inWorkOrder,
}: Deps): Handlers<typeof chargeRecordApi> {
  async function detail(ctx: AuthedCtx, id: number): Promise<ChargeRecordDetail> {
    const record = await repo.get(ctx.principal, id);
    if (!record) throw notFound();
    const all = await billing.lines([id]);
    // Tariff lines name a price version; discount lines (issue 19) name their member level, activity or voucher.
    const lines = all.flatMap((l) =>
      l.priceId !== null && l.tier !== null && (l.kind === 'elec' || l.kind === 'service')
        ? [{ ...l, priceId: l.priceId, tier: l.tier, kind: l.kind }]
        : [],
    );
    const versions = await repo.priceVersions([...new Set(lines.map((l) => l.priceId))]);
    return {
      ...record,
      discounts: all.flatMap((l) =>
        l.kind === 'member' || l.kind === 'activity' || l.kind === 'voucher'
          ? [
              {
                kind: l.kind,
                refId: l.refId ?? 0,
                label: l.label ?? '',
                energyWh: Number(l.energyWh),
                unitPrice: l.unitPrice,
                amountCents: l.amountCents,
              },
            ]
          : [],
      ),
      lines: lines.map((l) => ({
        priceId: l.priceId,
        effectiveFrom: (versions.get(l.priceId) ?? new Date(0)).toISOString(),
        tier: l.tier,
        kind: l.kind,
        energyWh: Number(l.energyWh),
        unitPrice: l.unitPrice,
        amountCents: l.amountCents,
        adjustment: l.adjustment,
      })),
    };
  }

  return {
    async list({ query, ctx }) {
      const { page, limit, ...filter } = query;
      return repo.list(ctx.principal, await dayZone.bound(ctx.principal, filter), page, limit);
    },
    async get({ query, ctx }) {
      return detail(ctx, query.id);
    },
    async processData({ body, ctx }) {
      const p = ctx.principal;
      // Without the records' own permission, only the session a visible work order names.
      const mayRead = p.roleKey === 'admin' || checkPermi(p.permissions, 'record:charge:query');
      if (!mayRead && !(await inWorkOrder(p, body.transactionId))) throw notFound();
      if (!(await repo.get(p, body.transactionId))) throw notFound();
      return { transactionId: body.transactionId, ...(await repo.samples(body.transactionId)) };
    },
    async confirm({ body, ctx, audit }) {
      audit.operand = `chargeRecord:${body.id}`;
      const before = await repo.get(ctx.principal, body.id);
      if (!before) throw notFound();
      if (!before.endTime) throw conflict('errors.chargeRecord.notFinished', { id: body.id });
      if (before.validity === 'valid') throw conflict('errors.chargeRecord.notInvalid', { id: body.id });
      if (before.validity === 'confirmed' || !(await repo.confirm(body.id, ctx.principal.userId))) {
        throw conflict('errors.chargeRecord.alreadyConfirmed', { id: body.id });
      }
      // Settlement is idempotent (row lock + billed_at + the ledger's charge reference).
      const outcome = await billing.settle(body.id);
      const after = await detail(ctx, body.id);
      if (outcome.kind === 'unbillable') {
        const reason = translate(ctx.lang, `enums.billingNote.${outcome.reason}`);
        return new Outcome(after, Code.WARN, 'errors.chargeRecord.confirmedNotBilled', { reason });
      }
      return after;
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...days } = body;
      const filter = await dayZone.bound(p, days);
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'chargeRecord',
        fileBase: 'charge_record',
        format,
        columns: await columns.columnsFor('chargeRecord', exportColumnsFor(ctx.lang), ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size), 2000),
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}
