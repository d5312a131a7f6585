import { MAX_PROCESS_SAMPLES, type ChargeRecordDto, type ChargeRecordFilter, type ProcessSample } from '@csms/contract';
import { and, asc, count as countRows, desc, eq, gt, gte, inArray, isNotNull, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { card, chargePoint, chargeUser, chargingTransaction as t, price, provider, station, systemUser } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope, stationScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

export type RecordFilter = Omit<ChargeRecordFilter, 'startTime' | 'endTime'> & { startTime?: Date | undefined; endTime?: Date | undefined };

const stopCard = alias(card, 'stop_card');
const stopUser = alias(chargeUser, 'stop_user');

const columns = {
  id: t.id,
  providerId: t.providerId,
  providerName: provider.name,
  stationId: t.stationId,
  stationName: station.name,
  stationAddress: station.address,
  stationTimeZone: station.timeZone,
  chargePointId: t.chargePointId,
  serialNumber: chargePoint.serialNumber,
  pointName: chargePoint.name,
  connectorNo: t.connectorNo,
  idTag: t.idTag,
  cardNumber: card.cardNumber,
  account: chargeUser.account,
  authStatus: t.authStatus,
  authReason: t.authReason,
  startType: t.startType,
  startedAt: t.startedAt,
  stoppedAt: t.stoppedAt,
  meterStartWh: t.meterStartWh,
  meterStopWh: t.meterStopWh,
  energyWh: t.energyWh,
  stopReason: t.stopReason,
  stopIdTag: t.stopIdTag,
  stopAccount: stopUser.account,
  elecFeeCents: t.elecFeeCents,
  serviceFeeCents: t.serviceFeeCents,
  reserveFeeCents: t.reserveFeeCents,
  totalCents: t.totalCents,
  billedAt: t.billedAt,
  paidFrom: t.paidFrom,
  billingNote: t.billingNote,
  valid: t.valid,
  invalidReason: t.invalidReason,
  confirmedByName: systemUser.username,
  confirmedAt: t.confirmedAt,
  late: t.late,
  lateStopAt: t.lateStopAt,
  adjustmentCents: t.adjustmentCents,
  createdAt: t.createdAt,
};

/**
 * What an export reads: the exported fields only. PGlite spends its time per column and row
 * moving results out, so the export leaves out what no export column shows (measured on 20k
 * records: about a third less CPU per row than the full record).
 */
const EXPORT_KEYS = [
  'id',
  'providerName',
  'stationName',
  'serialNumber',
  'pointName',
  'connectorNo',
  'idTag',
  'cardNumber',
  'account',
  'authStatus',
  'authReason',
  'startType',
  'startedAt',
  'stoppedAt',
  'energyWh',
  'stopReason',
  'stopAccount',
  'elecFeeCents',
  'serviceFeeCents',
  'reserveFeeCents',
  'totalCents',
  'billedAt',
  'paidFrom',
  'billingNote',
  'valid',
  'invalidReason',
  'confirmedAt',
  'lateStopAt',
  'adjustmentCents',
] as const satisfies readonly (keyof typeof columns)[];
const exportFields = Object.fromEntries(EXPORT_KEYS.map((k) => [k, columns[k]])) as Pick<typeof columns, (typeof EXPORT_KEYS)[number]>;

/** Started with an idTag Accepted for the charger's provider: only such a session shows a card or a charge user. */
export const authorized = eq(t.authStatus, 'Accepted');

// The charge user is the card's owner, else the account that started the session remotely; the
// stop account is the owner of a different card of the point's provider that stopped it. An
// unauthorised session shows neither (rows written before that rule may still name the card its
// refused idTag belonged to, possibly another provider's): only its raw idTag.
function selectRecords(db: Db, fields: typeof columns | typeof exportFields) {
  return db
    .select(fields)
    .from(t)
    .innerJoin(provider, eq(provider.id, t.providerId))
    .innerJoin(station, eq(station.id, t.stationId))
    .innerJoin(chargePoint, eq(chargePoint.id, t.chargePointId))
    .leftJoin(card, and(authorized, eq(card.id, t.cardId)))
    .leftJoin(chargeUser, and(authorized, eq(chargeUser.id, sql`coalesce(${card.chargeUserId}, ${t.chargeUserId})`)))
    .leftJoin(
      stopCard,
      and(
        isNotNull(t.stopIdTag),
        eq(stopCard.providerId, t.providerId),
        sql`lower(${stopCard.physicalId}) = lower(${t.stopIdTag})`,
        sql`lower(${t.stopIdTag}) <> lower(${t.idTag})`,
      ),
    )
    .leftJoin(stopUser, eq(stopUser.id, stopCard.chargeUserId))
    .leftJoin(systemUser, eq(systemUser.id, t.confirmedBy));
}

// The query's rows are the union of both selections, told apart by the fields only the full one has.
type SelectedRow = Awaited<ReturnType<typeof selectRecords>>[number];
export type RecordRow = Extract<SelectedRow, { providerId: number }>;
type ExportRecordRow = Exclude<SelectedRow, RecordRow>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const durationSec = (r: { startedAt: Date; stoppedAt: Date | null }) =>
  r.stoppedAt ? Math.max(0, Math.round((r.stoppedAt.getTime() - r.startedAt.getTime()) / 1000)) : null;
const validity = (r: { valid: boolean; confirmedAt: Date | null }): ChargeRecordDto['validity'] =>
  r.valid ? 'valid' : r.confirmedAt ? 'confirmed' : 'invalid';
const authorization = (r: { authStatus: string }): ChargeRecordDto['authorization'] =>
  r.authStatus === 'Accepted' ? 'authorized' : 'unauthorized';
const authReason = (r: { authReason: string | null }) => (r.authReason as ChargeRecordDto['authReason']) ?? null;

export function toDto(r: RecordRow): ChargeRecordDto {
  return {
    id: r.id,
    providerId: r.providerId,
    providerName: r.providerName ?? '',
    stationId: r.stationId,
    stationName: r.stationName ?? '',
    chargePointId: r.chargePointId,
    serialNumber: r.serialNumber ?? '',
    pointName: r.pointName ?? '',
    connectorNo: r.connectorNo,
    stationTimeZone: r.stationTimeZone ?? 'UTC',
    idTag: r.idTag,
    cardNumber: r.cardNumber,
    account: r.account,
    authorization: authorization(r),
    authReason: authReason(r),
    startType: r.startType,
    startTime: r.startedAt.toISOString(),
    endTime: iso(r.stoppedAt),
    durationSec: durationSec(r),
    meterStartWh: Number(r.meterStartWh),
    meterStopWh: r.meterStopWh === null ? null : Number(r.meterStopWh),
    energyWh: Number(r.energyWh),
    stopReason: r.stopReason,
    stopIdTag: r.stopIdTag,
    stopAccount: r.stopAccount,
    elecFeeCents: r.elecFeeCents,
    serviceFeeCents: r.serviceFeeCents,
    reserveFeeCents: r.reserveFeeCents,
    totalCents: r.totalCents,
    billedAt: iso(r.billedAt),
    paidFrom: r.paidFrom,
    billingNote: r.billingNote,
    validity: validity(r),
    invalidReason: r.invalidReason,
    confirmedByName: r.confirmedByName,
    confirmedAt: iso(r.confirmedAt),
    late: r.late,
    lateStopAt: iso(r.lateStopAt),
    adjustmentCents: r.adjustmentCents,
    createTime: r.createdAt.toISOString(),
  };
}

/** The record as an export reads it: the DTO's exported fields, computed as `toDto` does. */
export type ChargeRecordExportRow = Pick<
  ChargeRecordDto,
  | 'id'
  | 'providerName'
  | 'stationName'
  | 'serialNumber'
  | 'pointName'
  | 'connectorNo'
  | 'idTag'
  | 'cardNumber'
  | 'account'
  | 'authorization'
  | 'authReason'
  | 'startType'
  | 'startTime'
  | 'endTime'
  | 'durationSec'
  | 'energyWh'
  | 'stopReason'
  | 'stopAccount'
  | 'elecFeeCents'
  | 'serviceFeeCents'
  | 'reserveFeeCents'
  | 'totalCents'
  | 'billedAt'
  | 'paidFrom'
  | 'billingNote'
  | 'validity'
  | 'invalidReason'
  | 'lateStopAt'
  | 'adjustmentCents'
>;

function toExportRow(r: ExportRecordRow): ChargeRecordExportRow {
  return {
    id: r.id,
    providerName: r.providerName ?? '',
    stationName: r.stationName ?? '',
    serialNumber: r.serialNumber ?? '',
    pointName: r.pointName ?? '',
    connectorNo: r.connectorNo,
    idTag: r.idTag,
    cardNumber: r.cardNumber,
    account: r.account,
    authorization: authorization(r),
    authReason: authReason(r),
    startType: r.startType,
    startTime: r.startedAt.toISOString(),
    endTime: iso(r.stoppedAt),
    durationSec: durationSec(r),
    energyWh: Number(r.energyWh),
    stopReason: r.stopReason,
    stopAccount: r.stopAccount,
    elecFeeCents: r.elecFeeCents,
    serviceFeeCents: r.serviceFeeCents,
    reserveFeeCents: r.reserveFeeCents,
    totalCents: r.totalCents,
    billedAt: iso(r.billedAt),
    paidFrom: r.paidFrom,
    billingNote: r.billingNote,
    validity: validity(r),
    invalidReason: r.invalidReason,
    lateStopAt: iso(r.lateStopAt),
    adjustmentCents: r.adjustmentCents,
  };
}

/**
 * Charging records: transactions with their station, point, card, charge user and bill, scoped
 * to the caller's providers and bound stations. Lists and exports show finished sessions only
 * (running ones are on the monitor); a single record can be read while it runs.
 */
export function createChargeRecordRepo({ db }: { db: Db }) {
  const scope = (p: Principal) => and(providerScope(p, t.providerId), stationScope(p, t.stationId));

  // Filters on the transaction's own columns, or subqueries: the id queries stay single-table, so they
  // stream from an index however many records there are; the joins run only for the rows shown.
  // Searches match the few points, cards or users first and read their records by index; text is
  // compared as `lower(…) like lower(…)` (ILIKE's rule, the pattern lowered once: lib/text-search.ts).
  const own = (col: string) => sql.raw(`"charging_transaction"."${col}"`);
  const like = contains;
  const ids = (list: number[]) => sql`${`{${list.join(',')}}`}::int[]`;
  /**
   * A list's searches resolved once before its two queries (page and count), each a scan of the
   * users or cards: the ids they match. Unresolved (the export's keyset pages), the same matches are
   * subqueries of each statement.
   */
  type Found = { users?: number[]; ownedCards?: number[]; cards?: number[] };
  async function resolve(f: RecordFilter): Promise<Found> {
    const found: Found = {};
    if (f.account) {
      const users = await db.execute(sql`select u.id from charge_user u where lower(u.account) like lower(${like(f.account)})`);
      found.users = (users as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
      const owned = found.users.length
        ? await db.execute(sql`select c.id from card c where c.charge_user_id = any(${ids(found.users)})`)
        : { rows: [] };
      found.ownedCards = (owned as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
    }
    if (f.cardNumber) {
      const cards = await db.execute(sql`select c.id from card c where lower(c.card_number) like lower(${like(f.cardNumber)})`);
      found.cards = (cards as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
    }
    return found;
  }
  const filterSql = (f: RecordFilter, found: Found = {}): SQL | undefined =>
    and(
      isNotNull(t.stoppedAt),
      f.startTime ? gte(t.startedAt, f.startTime) : undefined,
      f.endTime ? lte(t.startedAt, f.endTime) : undefined,
      f.id ? eq(t.id, f.id) : undefined,
      f.stationId ? eq(t.stationId, f.stationId) : undefined,
      f.pointId ? eq(t.chargePointId, f.pointId) : undefined,
      f.serialNumber
        ? sql`${own('charge_point_id')} in (select cp.id from charge_point cp where lower(cp.serial_number) like lower(${like(f.serialNumber)}))`
        : undefined,
      // The account is the card owner's, else (no card, or a card without owner) the session's own charge user;
      // an unauthorised session has neither (see selectRecords).
      f.account || f.cardNumber ? authorized : undefined,
      // Two arms that the indexes by card and by charge user answer (`= any(array(…))`, each computed
      // once); `in (select …)` under the `or` was tested row by row over every record.
      f.account
        ? sql`(${own('card_id')} = any(${
            found.ownedCards
              ? ids(found.ownedCards)
              : sql`array(select c.id from card c where c.charge_user_id in (
              select u.id from charge_user u where lower(u.account) like lower(${like(f.account)})))`
          })
            or (${own('charge_user_id')} = any(${
              found.users
                ? ids(found.users)
                : sql`array(select u.id from charge_user u where lower(u.account) like lower(${like(f.account)}))`
            })
              and (${own('card_id')} is null or exists (select 1 from card c where c.id = ${own('card_id')} and c.charge_user_id is null))))`
        : undefined,
      f.cardNumber
        ? found.cards
          ? sql`${own('card_id')} = any(${ids(found.cards)})`
          : sql`${own('card_id')} in (select c.id from card c where lower(c.card_number) like lower(${like(f.cardNumber)}))`
        : undefined,
      f.startType ? eq(t.startType, f.startType) : undefined,
      // OCPP 1.6 leaves the reason out when it is Local.
      f.stopReason
        ? f.stopReason === 'Local'
          ? or(eq(t.stopReason, 'Local'), isNull(t.stopReason))
          : eq(t.stopReason, f.stopReason)
        : undefined,
      f.validity === 'valid' ? eq(t.valid, true) : undefined,
      f.validity === 'invalid' ? and(eq(t.valid, false), isNull(t.confirmedAt)) : undefined,
      f.validity === 'confirmed' ? and(eq(t.valid, false), isNotNull(t.confirmedAt)) : undefined,
      f.authorization === 'authorized' ? authorized : undefined,
      f.authorization === 'unauthorized' ? ne(t.authStatus, 'Accepted') : undefined,
      f.providerId ? eq(t.providerId, f.providerId) : undefined,
    );
  const where = (p: Principal, f: RecordFilter, ...more: SQL[]) => and(scope(p), filterSql(f), ...more);
  const whereFound = (p: Principal, f: RecordFilter, found: Found) => and(scope(p), filterSql(f, found));

  /** The records of these ids with everything joined, in the ids' order. */
  async function byIds(ids: number[]) {
    if (ids.length === 0) return [];
    const found = (await selectRecords(db, columns).where(inArray(t.id, ids))) as RecordRow[];
    const byId = new Map(found.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      return r ? [toDto(r)] : [];
    });
  }
  /** Exact: an export states its size and refuses what is over its limit. */
  const count = async (p: Principal, f: RecordFilter) => {
    const [row] = await db.select({ n: countRows() }).from(t).where(where(p, f));
    return row?.n ?? 0;
  };

  return {
    /** A page newest first, and the total (exact up to `EXACT_COUNT_LIMIT`, an estimate past it). */
    async list(p: Principal, f: RecordFilter, page: number, limit: number) {
      const offset = (page - 1) * limit;
      const cond = whereFound(p, f, await resolve(f));
      const pageIds = await db.select({ id: t.id }).from(t).where(cond).orderBy(desc(t.startedAt), desc(t.id)).limit(limit).offset(offset);
      const [list, total] = await Promise.all([
        byIds(pageIds.map((r) => r.id)),
        pageTotal(db, { offset, size: limit, rows: pageIds.length }, db.select({ id: t.id }).from(t).where(cond)),
      ]);
      return { list, ...total };
    },
    count,
    /** One keyset page (by id) for the export engine, with the exported fields only. */
    async page(p: Principal, f: RecordFilter, afterId: number, size: number): Promise<ChargeRecordExportRow[]> {
      const ids = await db
        .select({ id: t.id })
        .from(t)
        .where(where(p, f, gt(t.id, afterId)))
        .orderBy(asc(t.id))
        .limit(size);
      if (ids.length === 0) return [];
      // Then the joins for these ids only: the id query stays single-table (an index scan
      // whatever the filter), and the plan of the joins never depends on how far the export got.
      const found = (await selectRecords(db, exportFields)
        .where(
          inArray(
            t.id,
            ids.map((r) => r.id),
          ),
        )
        .orderBy(asc(t.id))) as ExportRecordRow[];
      return found.map(toExportRow);
    },
    /** One record in scope, running or finished, with its station's address. */
    async get(p: Principal, id: number) {
      const [row] = (await selectRecords(db, columns)
        .where(and(scope(p), eq(t.id, id)))
        .limit(1)) as RecordRow[];
      return row ? { ...toDto(row), stationAddress: row.stationAddress ?? '' } : undefined;
    },
    async priceVersions(ids: number[]) {
      if (ids.length === 0) return new Map<number, Date>();
      const found = await db.select({ id: price.id, effectiveFrom: price.effectiveFrom }).from(price).where(inArray(price.id, ids));
      return new Map(found.map((r) => [r.id, r.effectiveFrom]));
    },
    /** Marks an invalid, finished, unconfirmed record confirmed; false when another request got there first. */
    async confirm(id: number, userId: number) {
      const done = await db
        .update(t)
        .set({ confirmedBy: userId, confirmedAt: new Date() })
        .where(and(eq(t.id, id), eq(t.valid, false), isNull(t.confirmedAt), isNotNull(t.stoppedAt)))
        .returning({ id: t.id });
      return done.length === 1;
    },
    /**
     * The session's meter samples in time order; above MAX_PROCESS_SAMPLES every k-th is kept
     * (and the last), so a long session still draws its whole shape.
     */
    async samples(id: number): Promise<{ samples: ProcessSample[]; thinned: boolean }> {
      const res = (await db.execute(sql`
        select x.sampled_at, x.energy_wh, x.power_w, x.current_import_a, x.current_offered_a, x.voltage_v, x.soc, x.temperature_c, x.n
        from (
          select m.*, row_number() over (order by m.sampled_at, m.id) as rn, count(*) over () as n
          from meter_value m where m.transaction_id = ${id}
        ) x
        where (x.rn - 1) % greatest(1, ceil(x.n::numeric / ${MAX_PROCESS_SAMPLES})::int) = 0 or x.rn = x.n
        order by x.rn`)) as unknown as { rows: Record<string, unknown>[] };
      const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
      const samples = res.rows.map((r) => ({
        at: new Date(r.sampled_at as string).toISOString(),
        energyWh: num(r.energy_wh),
        powerW: num(r.power_w),
        currentImportA: num(r.current_import_a),
        currentOfferedA: num(r.current_offered_a),
        voltageV: num(r.voltage_v),
        soc: num(r.soc),
        temperatureC: num(r.temperature_c),
      }));
      return { samples, thinned: Number(res.rows[0]?.n ?? 0) > samples.length };
    },
  };
}

export type ChargeRecordRepo = ReturnType<typeof createChargeRecordRepo>;
