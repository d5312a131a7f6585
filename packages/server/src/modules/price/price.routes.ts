import type { PriceRowDto, PriceTier, PriceVersionDto, priceApi } from '@csms/contract';
import type { FastifyBaseLogger } from 'fastify';
import { conflict, badField, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { Principal } from '../../http/context.js';
import type { Billing } from '../billing/settle.js';
import type { PriceHead, PriceRepo, StationHead, VersionRow, VersionValues } from './price.repo.js';

interface Deps {
  repo: PriceRepo;
  billing: Pick<Billing, 'settle'>;
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
      return created(p, head, groupId, { effectiveFrom: body.effectiveFrom ?? now(), ...versionValues(body) });
    },
    async edit({ body, ctx }) {
      const p = ctx.principal;
      const [old] = await repo.visibleVersions(p, [body.id]);
      if (!old) throw notFound();
      const head = await stationOf(p, old.stationId);
      const values = versionValues(body);
      if (old.billedCount === 0) {
        // In place; moving its instant must respect the billed sessions on both sides of the move.
        const at = body.effectiveFrom ?? now();
        if (at.getTime() !== old.effectiveFrom.getTime()) {
          await checkEffective(old.stationId, head.timeZone, new Date(Math.min(at.getTime(), old.effectiveFrom.getTime())));
          await checkSameTime(old.stationId, old.groupId, head.timeZone, at, old.id);
        }
        if ((await repo.updateUnused(old.id, { effectiveFrom: at, ...values })) === 'updated') {
          await settleWaiting(old.stationId);
          return toVersionDto((await repo.version(old.id))!);
        }
      }
      // Used by a bill: the version stays as it is and the values become a new version.
      return created(p, head, old.groupId, { effectiveFrom: body.effectiveFrom ?? now(), ...values });
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
