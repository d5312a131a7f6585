import {
  Code,
  fieldLabel,
  unitsToDecimal,
  type PriceImpactDto,
  type PriceRowDto,
  type PriceTier,
  type PriceVersionDto,
  type priceApi,
} from '@csms/contract';
import type { FastifyBaseLogger } from 'fastify';
import { conflict, badField, notFound } from '../../http/errors.js';
import { Outcome, type Handlers } from '../../http/mount.js';
import type { Principal } from '../../http/context.js';
import { versionsInForce, type Billing, type PriceRow, type Quote } from '../billing/settle.js';
import type { PriceHead, PriceRepo, StationHead, VersionRow, VersionValues } from './price.repo.js';

interface Deps {
  repo: PriceRepo;
  billing: Pick<Billing, 'settle' | 'quote'>;
  log: FastifyBaseLogger;
  /** The clock; tests may pin it. */
  now?: () => Date;
}

/** Sessions settled in one go after a price change; the rest wait for start-up or the next change. */
const SETTLE_BATCH = 200;

type Body = Parameters<Handlers<typeof priceApi>['add']>[0]['body'];

/** `2026-03-01 08:00` in the station's zone, for messages. */
export function stationTime(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

export const toVersionDto = (v: VersionRow): PriceVersionDto => ({
  id: v.id,
  stationId: v.stationId,
  groupId: v.groupId,
  effectiveFrom: v.effectiveFrom.toISOString(),
  sharpElec: v.sharpElec,
  sharpService: v.sharpService,
  peakElec: v.peakElec,
  peakService: v.peakService,
  flatElec: v.flatElec,
  flatService: v.flatService,
  valleyElec: v.valleyElec,
  valleyService: v.valleyService,
  reserveFeeCents: v.reserveFeeCents,
  slots: v.slots as PriceTier[],
  billedCount: v.billedCount,
  used: v.billedCount > 0,
  createdByName: v.createdByName,
  createTime: v.createdAt.toISOString(),
});

/** The version in force at `now` (newest effective time not after it) and the next one waiting. */
export function currentAndNext<V extends { id: number; effectiveFrom: Date }>(versions: readonly V[], now: Date) {
  let current: V | undefined;
  let next: V | undefined;
  for (const v of versions) {
    const t = v.effectiveFrom.getTime();
    if (t <= now.getTime()) {
      if (!current || t > current.effectiveFrom.getTime() || (t === current.effectiveFrom.getTime() && v.id > current.id)) current = v;
    } else if (!next || t < next.effectiveFrom.getTime()) next = v;
  }
  return { current, next };
}

/** A version about to be saved: which price, which version it replaces in place (if any), its values. */
interface Pending {
  head: StationHead;
  groupId: number | null;
  replaces?: VersionRow;
  values: VersionValues;
}

const money = (cents: number) => unitsToDecimal(cents, 2);
const billed = (q: Quote) => (q.kind === 'bill' ? q.bill.totalCents : 0);
const sameQuote = (a: Quote, b: Quote) =>
  a.kind === b.kind &&
  (a.kind === 'bill' && b.kind === 'bill'
    ? a.bill.totalCents === b.bill.totalCents && JSON.stringify(a.bill.lines) === JSON.stringify(b.bill.lines)
    : a.kind === 'unbillable' && b.kind === 'unbillable' && a.reason === b.reason);

const keyOf = (stationId: number, groupId: number | null) => `${stationId}:${groupId ?? ''}`;

/**
 * Electricity prices. Rules for versions (README "Prices"):
 * - a version some bill line references is never changed or removed; saving it creates a new version;
 * - a version may take effect at an instant only if no billed session at the station ended after
 *   that instant, so a price change never alters a bill already made, while a price set for the
 *   past can still bill sessions that waited for one (they are settled right after the change);
 * - two versions of one price never share an effective instant.
 */
export function priceRoutes({ repo, billing, log, now = () => new Date() }: Deps): Handlers<typeof priceApi> {
  async function rowsOf(heads: PriceHead[]): Promise<PriceRowDto[]> {
    const versions = await repo.versionsOf(heads);
    const byPrice = new Map<string, VersionRow[]>();
    for (const v of versions) {
      const k = keyOf(v.stationId, v.groupId);
      byPrice.set(k, [...(byPrice.get(k) ?? []), v]);
    }
    const at = now();
    return heads.map((h) => {
      const mine = byPrice.get(keyOf(h.stationId, h.groupId)) ?? [];
      const { current: c, next } = currentAndNext(mine, at);
      return {
        ...h,
        currentId: c?.id ?? null,
        effectiveFrom: c?.effectiveFrom.toISOString() ?? null,
        sharpElec: c?.sharpElec ?? null,
        sharpService: c?.sharpService ?? null,
        peakElec: c?.peakElec ?? null,
        peakService: c?.peakService ?? null,
        flatElec: c?.flatElec ?? null,
        flatService: c?.flatService ?? null,
        valleyElec: c?.valleyElec ?? null,
        valleyService: c?.valleyService ?? null,
        reserveFeeCents: c?.reserveFeeCents ?? null,
        slots: (c?.slots as PriceTier[] | undefined) ?? null,
        upcomingFrom: next?.effectiveFrom.toISOString() ?? null,
        versionCount: mine.length,
      };
    });
  }

  /** The station (in the caller's scope) a version belongs to, or 404. */
  async function stationOf(p: Principal, stationId: number) {
    const head = await repo.station(p, stationId);
    if (!head) throw notFound();
    return head;
  }

  /** No version may take effect before the end of a session already billed at the station. */
  async function checkEffective(stationId: number, timeZone: string, at: Date) {
    const last = await repo.lastBilledStop(stationId);
    if (last && last.getTime() > at.getTime())
      throw conflict('errors.price.billedAfter', { time: stationTime(last, timeZone) }, 'effectiveFrom');
  }

  async function checkSameTime(stationId: number, groupId: number | null, timeZone: string, at: Date, exceptId?: number) {
    if (await repo.sameTime(stationId, groupId, at, exceptId))
      throw conflict('errors.price.sameTime', { time: stationTime(at, timeZone) }, 'effectiveFrom');
  }

  const versionValues = (body: Omit<Body, 'stationId' | 'groupId'>): Omit<VersionValues, 'effectiveFrom'> => ({
    sharpElec: body.sharpElec,
    sharpService: body.sharpService,
    peakElec: body.peakElec,
    peakService: body.peakService,
    flatElec: body.flatElec,
    flatService: body.flatService,
    valleyElec: body.valleyElec,
    valleyService: body.valleyService,
    reserveFeeCents: body.reserveFeeCents,
    slots: body.slots,
  });

  /** Sessions at the station that waited for a price are billed now; a failure only delays them. */
  async function settleWaiting(stationId: number) {
    try {
      for (const id of await repo.unbilledAt(stationId, SETTLE_BATCH)) await billing.settle(id);
    } catch (err) {
      log.error({ err, stationId }, 'settling after a price change failed');
    }
  }

  /**
   * What saving `v` changes: every unbilled session at the station that a version from that
   * instant could price, quoted by the billing code with the price's versions as they are and as
   * they would be. A running session is quoted up to its last meter sample.
   */
  async function impactOf(v: Pending, at: Date): Promise<PriceImpactDto> {
    const { head, groupId, replaces, values } = v;
    const since = new Date(Math.min(values.effectiveFrom.getTime(), replaces?.effectiveFrom.getTime() ?? Infinity));
    const before: PriceRow[] = await repo.versionsOf([{ stationId: head.stationId, groupId }]);
    const after: PriceRow[] = [
      ...before.filter((x) => x.id !== replaces?.id),
      {
        ...values,
        reserveFeeCents: values.reserveFeeCents ?? 0,
        id: replaces?.id ?? 0,
        providerId: head.providerId,
        stationId: head.stationId,
        groupId,
        createdBy: null,
        createdAt: at,
      },
    ];
    // Other prices (the station's own, for a group price's non-members) are read as they are.
    const others = new Map<string, PriceRow[]>();
    const loader = (mine: PriceRow[]) => async (stationId: number, gid: number | null, from: Date, to: Date) => {
      if (stationId === head.stationId && gid === groupId) return versionsInForce(mine, from, to);
      const k = keyOf(stationId, gid);
      if (!others.has(k)) others.set(k, await repo.versionsOf([{ stationId, groupId: gid }]));
      return versionsInForce(others.get(k)!, from, to);
    };
    const out: PriceImpactDto = {
      effectiveFrom: values.effectiveFrom.toISOString(),
      backdated: values.effectiveFrom.getTime() < at.getTime(),
      sessions: 0,
      finished: 0,
      running: 0,
      unpriced: 0,
      currentCents: 0,
      newCents: 0,
    };
    for (const t of await repo.unbilledSince(head.stationId, since)) {
      const running = t.stoppedAt === null || t.meterStopWh === null;
      const session = running
        ? { ...t, stoppedAt: t.lastSampleAt ?? t.startedAt, meterStopWh: t.lastMeterWh ?? t.meterStartWh }
        : { ...t, stoppedAt: t.stoppedAt!, meterStopWh: t.meterStopWh! };
      const [was, will] = [await billing.quote(session, loader(before)), await billing.quote(session, loader(after))];
      if (sameQuote(was, will)) continue;
      out.sessions++;
      if (running) out.running++;
      else out.finished++;
      if (was.kind === 'unbillable' && was.reason === 'noPrice') out.unpriced++;
      out.currentCents += billed(was);
      out.newCents += billed(will);
    }
    return out;
  }

  /**
   * A version that takes effect in the past re-prices sessions: it is saved only with
   * `confirmPast`, and the figures computed now go into the reply and the system log.
   */
  async function confirmed(v: Pending, confirm: boolean | undefined, at: Date): Promise<PriceImpactDto | null> {
    if (v.values.effectiveFrom.getTime() >= at.getTime()) return null;
    const impact = await impactOf(v, at);
    const params = {
      time: stationTime(v.values.effectiveFrom, v.head.timeZone),
      sessions: impact.sessions,
      current: money(impact.currentCents),
      next: money(impact.newCents),
    };
    if (!confirm) throw conflict('errors.price.confirmPast', params, 'confirmPast');
    return impact;
  }

  const savedPast = (dto: PriceVersionDto, impact: PriceImpactDto | null, timeZone: string) =>
    impact
      ? new Outcome(dto, Code.OK, 'errors.price.savedPast', {
          time: stationTime(new Date(impact.effectiveFrom), timeZone),
          sessions: impact.sessions,
          current: money(impact.currentCents),
          next: money(impact.newCents),
        })
      : dto;

  async function created(p: Principal, head: StationHead, groupId: number | null, values: VersionValues) {
    const { stationId, providerId, timeZone } = head;
    await checkEffective(stationId, timeZone, values.effectiveFrom);
    await checkSameTime(stationId, groupId, timeZone, values.effectiveFrom);
    const id = await repo.insert({ providerId, stationId, groupId, createdBy: p.userId, ...values });
    await settleWaiting(stationId);
    return toVersionDto((await repo.version(id))!);
  }

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      const { rows, total } = await repo.stations(ctx.principal, f, page, limit);
      return { list: await rowsOf(rows), total };
    },
    async groupList({ query, ctx }) {
      const { page, limit, ...f } = query;
      const { rows, total } = await repo.groupPairs(ctx.principal, f, page, limit);
      return { list: await rowsOf(rows), total };
    },
    async get({ query, ctx }) {
      const head = await stationOf(ctx.principal, query.stationId);
      let groupName: string | null = null;
      if (query.groupId !== undefined) {
        const group = await repo.group(ctx.principal, query.groupId);
        if (!group || group.providerId !== head.providerId) throw notFound();
        groupName = group.name;
      }
      const groupId = query.groupId ?? null;
      const versions = await repo.versionsOf([{ stationId: head.stationId, groupId }]);
      return {
        ...head,
        groupId,
        groupName,
        currentId: currentAndNext(versions, now()).current?.id ?? null,
        versions: versions.map(toVersionDto),
        groups: await repo.groupsAt(head.providerId, head.stationId),
      };
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      const head = await stationOf(p, body.stationId);
      const groupId = body.groupId ?? null;
      audit.operand = `price:station:${body.stationId}${groupId === null ? '' : `:group:${groupId}`}`;
      if (groupId !== null) {
        const group = await repo.group(p, groupId);
        if (!group) throw notFound();
        if (group.providerId !== head.providerId)
          throw badField('groupId', 'errors.price.groupProvider', { group: group.name, station: head.stationName });
      }
      const at = now();
      const values = { effectiveFrom: body.effectiveFrom ?? at, ...versionValues(body) };
      await checkEffective(head.stationId, head.timeZone, values.effectiveFrom);
      const impact = await confirmed({ head, groupId, values }, body.confirmPast, at);
      return savedPast(await created(p, head, groupId, values), impact, head.timeZone);
    },
    async edit({ body, ctx }) {
      const p = ctx.principal;
      const [old] = await repo.visibleVersions(p, [body.id]);
      if (!old) throw notFound();
      const head = await stationOf(p, old.stationId);
      const values = versionValues(body);
      const requested = now();
      if (old.billedCount === 0) {
        // In place; moving its instant must respect the billed sessions on both sides of the move.
        const at = body.effectiveFrom ?? requested;
        if (at.getTime() !== old.effectiveFrom.getTime()) {
          await checkEffective(old.stationId, head.timeZone, new Date(Math.min(at.getTime(), old.effectiveFrom.getTime())));
          await checkSameTime(old.stationId, old.groupId, head.timeZone, at, old.id);
        }
        const impact = await confirmed(
          { head, groupId: old.groupId, replaces: old, values: { effectiveFrom: at, ...values } },
          body.confirmPast,
          requested,
        );
        if ((await repo.updateUnused(old.id, { effectiveFrom: at, ...values })) === 'updated') {
          await settleWaiting(old.stationId);
          return savedPast(toVersionDto((await repo.version(old.id))!), impact, head.timeZone);
        }
      }
      // Used by a bill: the version stays as it is and the values become a new version.
      const fresh = { effectiveFrom: body.effectiveFrom ?? requested, ...values };
      await checkEffective(old.stationId, head.timeZone, fresh.effectiveFrom);
      const impact = await confirmed({ head, groupId: old.groupId, values: fresh }, body.confirmPast, requested);
      return savedPast(await created(p, head, old.groupId, fresh), impact, head.timeZone);
    },
    async impact({ body, ctx }) {
      const p = ctx.principal;
      const at = now();
      const values = { effectiveFrom: body.effectiveFrom ?? at, ...versionValues(body) };
      if (body.id !== undefined) {
        const [old] = await repo.visibleVersions(p, [body.id]);
        if (!old) throw notFound();
        const head = await stationOf(p, old.stationId);
        return impactOf({ head, groupId: old.groupId, replaces: old.billedCount === 0 ? old : undefined, values }, at);
      }
      if (body.stationId === undefined)
        throw badField('stationId', 'validation.required', { field: fieldLabel(ctx.lang, 'price', 'stationId') });
      const head = await stationOf(p, body.stationId);
      const groupId = body.groupId ?? null;
      if (groupId !== null) {
        const group = await repo.group(p, groupId);
        if (!group || group.providerId !== head.providerId) throw notFound();
      }
      return impactOf({ head, groupId, values }, at);
    },
    async remove({ body, ctx }) {
      const ids = [...new Set(body.ids)];
      const found = await repo.visibleVersions(ctx.principal, ids);
      if (found.length !== ids.length) throw notFound();
      const used = found.find((v) => v.billedCount > 0);
      const refuse = async (v: VersionRow) => {
        const head = await repo.station(ctx.principal, v.stationId);
        return conflict('errors.price.versionUsed', {
          time: stationTime(v.effectiveFrom, head?.timeZone ?? 'UTC'),
          count: v.billedCount,
        });
      };
      if (used) throw await refuse(used);
      const removed = await repo.removeUnused(ids);
      if (removed === 'used') {
        // A bill took one of them between the check and the delete.
        const again = (await repo.visibleVersions(ctx.principal, ids)).find((v) => v.billedCount > 0) ?? found[0]!;
        throw await refuse(again);
      }
      return { removed };
    },
  };
}
