import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { OcppConfig } from '../config.js';
import type { Db } from '../db/client.js';
import { loginAttempt, ocppLog } from '../db/schema.js';
import { coalescing } from '../lib/coalesce.js';

type Limits = Pick<OcppConfig, 'connectMaxFailures' | 'connectMaxFailuresPerIp' | 'connectLockSeconds'>;

interface Logger {
  warn(obj: unknown, msg?: string): void;
}

/** A refused upgrade as the limiter counts it. */
export interface FailedAttempt {
  identity: string;
  address: string;
  reason: string;
  httpStatus: number;
  path: string;
  point?: { id: number; providerId: number } | undefined;
}

/** What one identity's refusals since the last flush add to its summary row. */
interface Pending {
  identity: string;
  point: { id: number; providerId: number } | undefined;
  count: number;
  reasons: Map<string, number>;
  addresses: Set<string>;
  httpStatus: number;
  reason: string;
  path: string;
  first: Date;
  last: Date;
  /** Only a counted failure opens a summary row; refusals while locked add to one that exists. */
  mayCreate: boolean;
}

/** The payload of a summary row (`ocpp_log`, direction `refused`): one per identity and counting window. */
export interface RefusalSummary {
  /** The first refusal's reason and HTTP status in the window. */
  reason: string;
  httpStatus: number;
  /** Refused attempts in the window, and how many for each reason (`locked`: refused by the lockout). */
  count: number;
  reasons: Record<string, number>;
  /** Source addresses seen, at most `MAX_ADDRESSES`; `moreAddresses` when others were left out. */
  addresses: string[];
  moreAddresses?: boolean;
  remoteAddress: string;
  path: string;
  firstAt: string;
  lastAt: string;
}

const MAX_ADDRESSES = 20;
/** Identities with refusals waiting to be flushed; more are counted in a warning only (a flood of made-up names). */
const MAX_PENDING = 10_000;

/**
 * Failed OCPP upgrades (DESIGN.md §5), counted like sign-ins (modules/auth/attempts.ts) in
 * `login_attempt` under `ocpp:ip:<address>` and `ocpp:id:<identity>`, so every node sees the same
 * counts. A key with `max` failures within the window is locked for the window's length: its
 * attempts are refused with 429 before any credential is looked at, and a node that learnt of a lock
 * refuses from memory (a flood then costs no database work). A successful connection starts its
 * identity over; an address is only ever released by time.
 *
 * The OCPP log gets one summary row per identity and window (count, reasons, addresses) instead of a
 * row per attempt, so a flood cannot fill a provider's log: refusals are gathered in memory and added
 * to that row every `flushMs`, under an advisory lock per identity so nodes never write two.
 */
export function createConnectLimiter({ db, limits, logger, flushMs = 1000 }: { db: Db; limits: Limits; logger: Logger; flushMs?: number }) {
  const t = loginAttempt;
  const window = sql`${limits.connectLockSeconds} * interval '1 second'`;
  const idKey = (identity: string) => `ocpp:id:${identity}`;
  const keys = (identity: string, address: string) => [
    { key: `ocpp:ip:${address}`, max: limits.connectMaxFailuresPerIp },
    { key: idKey(identity), max: limits.connectMaxFailures },
  ];
  const unlocked = sql`(${t.lockedUntil} is null or ${t.lockedUntil} <= now())`;
  const stale = sql`(${t.windowStart} <= now() - ${window} and ${unlocked})`;

  /** Locks this node knows of: key → end (this node's clock, from the database's seconds left). */
  const locks = new Map<string, number>();
  const pending = new Map<string, Pending>();
  let dropped = 0;
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  function remember(key: string, seconds: number) {
    if (seconds <= 0) return;
    if (locks.size >= MAX_PENDING * 10) locks.delete(locks.keys().next().value!);
    locks.set(key, Date.now() + seconds * 1000);
  }

  function note(a: FailedAttempt, mayCreate: boolean) {
    let p = pending.get(a.identity);
    if (!p) {
      if (pending.size >= MAX_PENDING) {
        dropped++;
        return;
      }
      p = {
        identity: a.identity,
        point: a.point,
        count: 0,
        reasons: new Map(),
        addresses: new Set(),
        httpStatus: a.httpStatus,
        reason: a.reason,
        path: a.path,
        first: new Date(),
        last: new Date(),
        mayCreate,
      };
      pending.set(a.identity, p);
    }
    p.count++;
    p.reasons.set(a.reason, (p.reasons.get(a.reason) ?? 0) + 1);
    if (p.addresses.size < MAX_ADDRESSES + 1) p.addresses.add(a.address);
    p.point ??= a.point;
    p.last = new Date();
    p.mayCreate ||= mayCreate;
    if (!timer) {
      timer = setTimeout(() => void flush(), flushMs);
      timer.unref();
    }
  }

  /** Adds one identity's pending refusals to its summary row of the current window (or opens it). */
  async function summarize(p: Pending): Promise<void> {
    await db.transaction(async (q) => {
      await q.execute(sql`select pg_advisory_xact_lock(hashtext(${`ocpp-refused:${p.identity}`}))`);
      const since = sql`(select ${t.windowStart} from ${t} where ${t.key} = ${idKey(p.identity)})`;
      const [row] = await q
        .select({ id: ocppLog.id, payload: ocppLog.payload, providerId: ocppLog.providerId })
        .from(ocppLog)
        .where(and(eq(ocppLog.serialNumber, p.identity.slice(0, 64)), eq(ocppLog.direction, 'refused'), gte(ocppLog.createdAt, since)))
        .orderBy(desc(ocppLog.id))
        .limit(1);
      const old = (row?.payload ?? null) as Partial<RefusalSummary> | null;
      if (!row && !p.mayCreate) {
        dropped += p.count;
        return;
      }
      const reasons: Record<string, number> = { ...(old?.reasons ?? (old?.reason ? { [old.reason]: 1 } : {})) };
      for (const [r, n] of p.reasons) reasons[r] = (reasons[r] ?? 0) + n;
      const addresses = [...new Set([...(old?.addresses ?? []), ...p.addresses])];
      const payload: RefusalSummary = {
        reason: old?.reason ?? p.reason,
        httpStatus: old?.httpStatus ?? p.httpStatus,
        count: (old?.count ?? (old ? 1 : 0)) + p.count,
        reasons,
        addresses: addresses.slice(0, MAX_ADDRESSES),
        ...(addresses.length > MAX_ADDRESSES || old?.moreAddresses ? { moreAddresses: true } : {}),
        remoteAddress: old?.remoteAddress ?? [...p.addresses][0] ?? '',
        path: old?.path ?? p.path,
        firstAt: old?.firstAt ?? p.first.toISOString(),
        lastAt: p.last.toISOString(),
      };
      if (row) {
        await q
          .update(ocppLog)
          .set({
            payload,
            ...(row.providerId === null && p.point ? { providerId: p.point.providerId, chargePointId: p.point.id } : {}),
          })
          .where(eq(ocppLog.id, row.id));
      } else {
        await q.insert(ocppLog).values({
          providerId: p.point?.providerId ?? null,
          chargePointId: p.point?.id ?? null,
          serialNumber: p.identity.slice(0, 64),
          direction: 'refused',
          payload,
          // Never before the window's start: a JavaScript date keeps milliseconds and the database's
          // clock microseconds, so the first refusal's time can read earlier than the window it opened,
          // and a node looking for this window's row would miss it and open a second one.
          createdAt: sql`greatest(${p.first.toISOString()}::timestamptz, coalesce(${since}, '-infinity'::timestamptz))`,
        });
      }
    });
  }

  /** Writes what is pending; resolves once it (and every earlier flush) is in the database. */
  function flush(): Promise<void> {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    const batch = [...pending.values()];
    pending.clear();
    writing = writing.then(async () => {
      for (const p of batch) {
        await summarize(p).catch((err: unknown) => logger.warn({ err, identity: p.identity }, 'ocpp: refused-connection summary failed'));
      }
      if (dropped > 0) {
        logger.warn({ dropped }, 'ocpp: refused connections counted in no summary row (flood of identities or addresses)');
        dropped = 0;
      }
    });
    return writing;
  }

  /**
   * Locks on the keys of connecting chargers (identity and address each), and the identities' counts
   * dropped where neither key is locked; one statement for all the chargers of a batch.
   */
  const admittedLoader = coalescing(
    async (list: readonly { identity: string; address: string }[]) => {
      const pairs = list.map(({ identity, address }) => {
        const [ip, id] = keys(identity, address);
        return { ip: ip!.key, id: id!.key };
      });
      const res =
        (await db.execute(sql`with pairs as (select * from json_to_recordset(${JSON.stringify(pairs)}::json) as p(ip text, id text)),
        locked as (
          select key, extract(epoch from locked_until - now())::float8 as seconds from login_attempt
          where key in (select ip from pairs union select id from pairs) and locked_until > now()
        ), reset as (
          delete from login_attempt where key in (
            select p.id from pairs p where not exists (select 1 from locked l where l.key in (p.ip, p.id)))
        )
        select key, seconds from locked`)) as unknown as { rows: { key: string; seconds: number | string }[] };
      const seconds = new Map<string, number>();
      for (const r of res.rows) {
        remember(r.key, Number(r.seconds));
        seconds.set(r.key, Number(r.seconds));
      }
      return new Map(
        list.map((k, i) => [k, Math.max(0, Math.ceil(seconds.get(pairs[i]!.ip) ?? 0), Math.ceil(seconds.get(pairs[i]!.id) ?? 0))]),
      );
    },
    { missing: 0 },
  );

  return {
    /** Seconds this node knows the identity or the address to be locked for; 0 when neither is. */
    lockedFor(identity: string, address: string): number {
      const now = Date.now();
      let left = 0;
      for (const { key } of keys(identity, address)) {
        const until = locks.get(key);
        if (until === undefined) continue;
        if (until <= now) locks.delete(key);
        else left = Math.max(left, Math.ceil((until - now) / 1000));
      }
      return left;
    },

    /** A refused attempt: counted for its address and identity (locking a key that reached its limit), and summarized. */
    async failed(a: FailedAttempt): Promise<void> {
      for (const { key, max } of keys(a.identity, a.address)) {
        const [row] = await db
          .insert(t)
          .values({ key, failures: 1, windowStart: sql`now()`, lockedUntil: max <= 1 ? sql`now() + ${window}` : null })
          .onConflictDoUpdate({
            target: t.key,
            set: {
              failures: sql`case when ${stale} then 1 else ${t.failures} + 1 end`,
              windowStart: sql`case when ${stale} then now() else ${t.windowStart} end`,
              lockedUntil: sql`case
                when ${stale} then ${max <= 1 ? sql`now() + ${window}` : sql`null::timestamptz`}
                when ${t.lockedUntil} > now() then ${t.lockedUntil}
                when ${t.failures} + 1 >= ${max} then now() + ${window}
                else null end`,
            },
          })
          .returning({ seconds: sql<number>`coalesce(extract(epoch from ${t.lockedUntil} - now()), 0)::float8` });
        remember(key, Number(row?.seconds ?? 0));
      }
      note(a, true);
    },

    /** An attempt refused because its identity or address is locked: added to the summary, not counted again. */
    lockedOut(a: FailedAttempt): void {
      note(a, false);
    },

    /**
     * Credentials were right: 0 when neither key is locked (another node may have locked one), and the
     * identity starts over; else the seconds left.
     */
    /**
     * After the right credentials: seconds left of a lock another node set on the identity or the address (0:
     * none), and the identity's count starts over. Chargers connecting together share one statement.
     */
    admitted: (identity: string, address: string): Promise<number> => admittedLoader({ identity, address }),

    flush,
  };
}

export type ConnectLimiter = ReturnType<typeof createConnectLimiter>;
