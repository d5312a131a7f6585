import type { AlarmRecordDto, AlarmRecordFilter } from '@csms/contract';
import { and, asc, count as countRows, desc, eq, gt, gte, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { alarm, chargePoint, provider, station } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope, stationScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

export type AlarmFilter = Omit<AlarmRecordFilter, 'startTime' | 'endTime'> & { startTime?: Date | undefined; endTime?: Date | undefined };

function selectAlarms(db: Db) {
  return db
    .select({
      id: alarm.id,
      providerId: alarm.providerId,
      providerName: provider.name,
      stationId: alarm.stationId,
      stationName: station.name,
      stationTimeZone: station.timeZone,
      chargePointId: alarm.chargePointId,
      serialNumber: chargePoint.serialNumber,
      pointName: chargePoint.name,
      connectorNo: alarm.connectorNo,
      level: alarm.level,
      status: alarm.status,
      errorCode: alarm.errorCode,
      info: alarm.info,
      vendorErrorCode: alarm.vendorErrorCode,
      occurredAt: alarm.occurredAt,
      clearedAt: alarm.clearedAt,
    })
    .from(alarm)
    .innerJoin(provider, eq(provider.id, alarm.providerId))
    .innerJoin(station, eq(station.id, alarm.stationId))
    .innerJoin(chargePoint, eq(chargePoint.id, alarm.chargePointId));
}

type Row = Awaited<ReturnType<typeof selectAlarms>>[number];

export function toDto(r: Row, now = Date.now()): AlarmRecordDto {
  const end = r.clearedAt?.getTime() ?? now;
  return {
    id: r.id,
    providerId: r.providerId,
    providerName: r.providerName,
    stationId: r.stationId,
    stationName: r.stationName,
    stationTimeZone: r.stationTimeZone,
    chargePointId: r.chargePointId,
    serialNumber: r.serialNumber,
    pointName: r.pointName,
    connectorNo: r.connectorNo,
    level: r.level,
    status: r.status,
    errorCode: r.errorCode,
    info: r.info,
    vendorErrorCode: r.vendorErrorCode,
    occurTime: r.occurredAt.toISOString(),
    clearTime: r.clearedAt?.toISOString() ?? null,
    state: r.clearedAt ? 'cleared' : 'open',
    durationSec: Math.max(0, Math.round((end - r.occurredAt.getTime()) / 1000)),
  };
}

/** Alarm records (faults from status notifications), scoped to the caller's providers and bound stations. */
export function createAlarmRecordRepo({ db }: { db: Db }) {
  const scope = (p: Principal) => and(providerScope(p, alarm.providerId), stationScope(p, alarm.stationId));
  const filterSql = (f: AlarmFilter): SQL | undefined =>
    and(
      f.startTime ? gte(alarm.occurredAt, f.startTime) : undefined,
      f.endTime ? lte(alarm.occurredAt, f.endTime) : undefined,
      f.stationId ? eq(alarm.stationId, f.stationId) : undefined,
      f.pointId ? eq(alarm.chargePointId, f.pointId) : undefined,
      // The matching points first, then their alarms by index.
      f.serialNumber
        ? sql`${sql.raw('"alarm"."charge_point_id"')} in (select cp.id from charge_point cp where lower(cp.serial_number) like lower(${contains(f.serialNumber)}))`
        : undefined,
      f.level ? eq(alarm.level, f.level) : undefined,
      // The few error codes the table holds that contain the text (walked on their index), then
      // those codes' rows: matching the text against every alarm read the whole table to count.
      f.errorCode
        ? sql`${sql.raw('"alarm"."error_code"')} = any(array(
            with recursive codes(code) as (
              select min(a.error_code) from alarm a
              union all
              select (select min(a.error_code) from alarm a where a.error_code > codes.code) from codes where codes.code is not null)
            select code from codes where code ilike ${contains(f.errorCode)}))`
        : undefined,
      f.state === 'open' ? isNull(alarm.clearedAt) : f.state === 'cleared' ? isNotNull(alarm.clearedAt) : undefined,
      f.providerId ? eq(alarm.providerId, f.providerId) : undefined,
    );
  const where = (p: Principal, f: AlarmFilter, ...more: SQL[]) => and(scope(p), filterSql(f), ...more);
  // Ids from the alarm table alone (indexes, whatever its size), then the names joined for those rows only.
  async function byIds(ids: number[]) {
    if (ids.length === 0) return [];
    const found = new Map((await selectAlarms(db).where(inArray(alarm.id, ids))).map((r) => [r.id, r]));
    const now = Date.now();
    return ids.flatMap((id) => {
      const r = found.get(id);
      return r ? [toDto(r, now)] : [];
    });
  }
  /** Exact, for exports. */
  const count = async (p: Principal, f: AlarmFilter) => {
    const [row] = await db.select({ n: countRows() }).from(alarm).where(where(p, f));
    return row?.n ?? 0;
  };

  return {
    async list(p: Principal, f: AlarmFilter, page: number, limit: number) {
      const offset = (page - 1) * limit;
      const ids = await db
        .select({ id: alarm.id })
        .from(alarm)
        .where(where(p, f))
        .orderBy(desc(alarm.occurredAt), desc(alarm.id))
        .limit(limit)
        .offset(offset);
      const [list, total] = await Promise.all([
        byIds(ids.map((r) => r.id)),
        pageTotal(db, { offset, size: limit, rows: ids.length }, db.select({ id: alarm.id }).from(alarm).where(where(p, f))),
      ]);
      return { list, ...total };
    },
    count,
    async page(p: Principal, f: AlarmFilter, afterId: number, size: number) {
      const ids = await db
        .select({ id: alarm.id })
        .from(alarm)
        .where(where(p, f, gt(alarm.id, afterId)))
        .orderBy(asc(alarm.id))
        .limit(size);
      return byIds(ids.map((r) => r.id));
    },
    async get(p: Principal, id: number) {
      const [row] = await selectAlarms(db)
        .where(and(scope(p), eq(alarm.id, id)))
        .limit(1);
      return row ? toDto(row) : undefined;
    },
  };
}

export type AlarmRecordRepo = ReturnType<typeof createAlarmRecordRepo>;
