import type { AuthorizationReason, OcppLogDto } from '@csms/contract';
import { and, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { contains } from '../../lib/text-search.js';

/**
 * The log counts exactly up to 1,000 rows, not 10,000: each response row costs a look-up of its
 * request (the pairing), so counting 10,000 rows took 30–75 ms on the bench machine.
 */
const EXACT_LOG_COUNT = 1_000;

export interface OcppLogFilter {
  serialNumber?: string | undefined;
  action?: string | undefined;
  direction?: 'in' | 'out' | 'refused' | undefined;
  messageId?: string | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

interface RawRow {
  id: string | number;
  provider_id: number | null;
  serial_number: string;
  direction: 'in' | 'out' | 'refused';
  message_type: number | null;
  action: string | null;
  message_id: string | null;
  created_at: Date | string;
  response_type: number | null;
  response_time: Date | string | null;
  latency_ms: string | number | null;
  error_code: string | null;
  reason: AuthorizationReason | null;
  payload?: unknown;
  response_payload?: unknown;
}

const iso = (d: Date | string) => new Date(d).toISOString();

export const toDto = (r: RawRow): OcppLogDto => ({
  id: Number(r.id),
  providerId: r.provider_id,
  serialNumber: r.serial_number,
  direction: r.direction,
  messageType: r.message_type,
  action: r.action,
  messageId: r.message_id,
  createTime: iso(r.created_at),
  responseType: r.response_type,
  responseTime: r.response_time === null ? null : iso(r.response_time),
  latencyMs: r.latency_ms === null ? null : Math.round(Number(r.latency_ms)),
  errorCode: r.error_code,
  reason: r.reason,
});

/**
 * The OCPP log as exchanges: each request (CALL) with the first response after it carrying its
 * message id in the other direction; responses that pair with a request are folded into it,
 * the rest (refused connections, unpaired frames) are rows of their own.
 *
 * Scope: the provider subtree (rows of unknown identities have no provider: only the super
 * provider sees them) and, for station-bound users, their stations' points.
 */
export function createOcppLogRepo({ db }: { db: Db }) {
  function where(p: Principal, f: OcppLogFilter, ...more: SQL[]): SQL {
    const conds: (SQL | undefined)[] = [
      // Not a response that a request before it accounts for.
      sql`(l.message_type is null or l.message_type not in (3, 4) or not exists (
        select 1 from ocpp_log q where q.serial_number = l.serial_number and q.message_id = l.message_id
          and q.message_type = 2 and q.direction <> l.direction and q.id < l.id))`,
      p.providerIds === 'all'
        ? undefined
        : p.providerIds.length === 0
          ? sql`false`
          : sql`l.provider_id in (${sql.join(
              p.providerIds.map((id) => sql`${id}`),
              sql`, `,
            )})`,
      p.stationIds === null
        ? undefined
        : p.stationIds.length === 0
          ? sql`false`
          : sql`l.charge_point_id in (select cp.id from charge_point cp where cp.station_id in (${sql.join(
              p.stationIds.map((id) => sql`${id}`),
              sql`, `,
            )}))`,
      // Every identity the log holds is in ocpp_log_identity (a trigger keeps it): the text is matched
      // against those names, and the rows of the ones that match are read by index.
      f.serialNumber
        ? sql`l.serial_number in (select i.serial_number from ocpp_log_identity i where lower(i.serial_number) like lower(${contains(f.serialNumber)}))`
        : undefined,
      // ILIKE on the column itself: its statistics estimate how many rows match, which the total needs past 1,000.
      f.action ? sql`l.action ilike ${contains(f.action)}` : undefined,
      f.direction ? sql`l.direction = ${f.direction}` : undefined,
      f.messageId ? sql`l.message_id = ${f.messageId}` : undefined,
      f.startTime ? sql`l.created_at >= ${f.startTime.toISOString()}::timestamptz` : undefined,
      f.endTime ? sql`l.created_at <= ${f.endTime.toISOString()}::timestamptz` : undefined,
      ...more,
    ];
    return and(...conds)!;
  }

  // A charger's CALL is stored with our answer (response_* columns, its latency and reason); any other
  // request's answer is a row of its own, found here.
  const select = (withPayload: boolean) => sql`
    select l.id, l.provider_id, l.serial_number, l.direction, l.message_type, l.action, l.message_id, l.created_at,
      r.message_type as response_type, r.created_at as response_time,
      coalesce(r.latency_ms, round(extract(epoch from (r.created_at - l.created_at)) * 1000)) as latency_ms,
      case when r.message_type = 4 then coalesce(r.payload ->> 'errorCode', r.payload ->> 'code', r.payload ->> 0) end as error_code,
      r.reason
      ${withPayload ? sql`, l.payload, r.payload as response_payload` : sql``}
    from ocpp_log l
    left join lateral (
      select l.response_type as message_type, l.response_at as created_at, l.latency_ms, l.response_payload as payload, l.reason
      where l.response_type is not null
      union all (
        select x.message_type, x.created_at, x.latency_ms, x.payload, x.reason from ocpp_log x
        where l.message_type = 2 and l.response_type is null and x.serial_number = l.serial_number and x.message_id = l.message_id
          and x.message_type in (3, 4) and x.direction <> l.direction and x.id > l.id
        order by x.id limit 1
      )
    ) r on true`;

  const rows = async (q: SQL) => {
    const res = (await db.execute(q)) as unknown as { rows: RawRow[] };
    return res.rows;
  };

  return {
    /** A page newest first, and the total (exact up to `EXACT_LOG_COUNT`, an estimate past it). */
    async list(p: Principal, f: OcppLogFilter, page: number, limit: number) {
      const offset = (page - 1) * limit;
      // The page's ids first, then the responses paired to those rows only: paired in one query, every
      // row the offset skipped was paired too.
      const list = await rows(
        sql`${select(false)} where l.id in (select l.id from ocpp_log l where ${where(p, f)} order by l.id desc limit ${limit} offset ${offset}) order by l.id desc`,
      );
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: list.length },
        sql`select 1 from ocpp_log l where ${where(p, f)}`,
        EXACT_LOG_COUNT,
      );
      return { list: list.map(toDto), ...total };
    },
    /** Exact, for exports. */
    async count(p: Principal, f: OcppLogFilter) {
      const [r] = await rows(sql`select count(*)::int as id from ocpp_log l where ${where(p, f)}`);
      return Number(r?.id ?? 0);
    },
    /** One keyset page (ascending ids) with payloads, for the export engine. */
    async page(p: Principal, f: OcppLogFilter, afterId: number, size: number) {
      const list = await rows(sql`${select(true)} where ${where(p, f, sql`l.id > ${afterId}`)} order by l.id limit ${size}`);
      return list.map((r) => ({ ...toDto(r), payload: r.payload ?? null, responsePayload: r.response_payload ?? null }));
    },
    async get(p: Principal, id: number) {
      const [r] = await rows(sql`${select(true)} where ${where(p, {}, sql`l.id = ${id}`)} limit 1`);
      return r ? { ...toDto(r), payload: r.payload ?? null, responsePayload: r.response_payload ?? null } : undefined;
    },
  };
}

export type OcppLogRepo = ReturnType<typeof createOcppLogRepo>;
