import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loginAttempt, ocppLog } from '../../src/db/schema.js';
import type { RefusalSummary } from '../../src/ocpp/attempts.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, TestCharger } from './support.js';

/**
 * Issue 12 item 10: failed OCPP upgrades are counted per identity and per source address in the
 * database (every node sees them), lock the identity or address out with 429 once a limit is reached,
 * and leave one summary row per identity and counting window in the OCPP log instead of a row each.
 */

const defaults = loadConfig({}).ocpp;

/** The HTTP status of a refused upgrade; 101 when it was accepted (the socket is closed again). */
async function attempt(s: TestServer, serialNumber: string, key: string | null) {
  return TestCharger.connect(s.url, serialNumber, { key }).then(
    async (c) => {
      await c.close();
      return 101;
    },
    (e: { status?: number }) => e.status ?? 0,
  );
}

async function summaries(servers: TestServer[], where: ReturnType<typeof eq>) {
  for (const x of servers) await x.app.ocpp.flush();
  return servers[0]!.database.db
    .select()
    .from(ocppLog)
    .where(and(eq(ocppLog.direction, 'refused'), where))
    .orderBy(ocppLog.id);
}

describe('failed OCPP upgrades, per identity', () => {
  let s: TestServer;
  let other: TestServer;
  const ocpp = { ...defaults, connectMaxFailures: 10, connectMaxFailuresPerIp: 100_000, connectLockSeconds: 600 };
  beforeAll(async () => {
    s = await startServer({ ocpp });
    // A second node on the same database.
    other = await startServer({ ocpp }, s);
  });
  afterAll(async () => {
    await other.close();
    await s.close();
  });

  it('200 bad attempts: a lockout after the limit, one summary row, and the right key works once the window is over', async () => {
    const { serialNumber, key, point } = await createPoint(s.database.db);
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push(await attempt(s, serialNumber, 'wrong-key'));
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(new Set(statuses.slice(10))).toEqual(new Set([429]));
    // Locked: even the right key is refused, on this node and on the other one.
    expect(await attempt(s, serialNumber, key)).toBe(429);
    expect(await attempt(other, serialNumber, key)).toBe(429);
    // Refusals while locked were answered before any lookup: the database counted only the ten.
    const [counter] = await s.database.db
      .select()
      .from(loginAttempt)
      .where(eq(loginAttempt.key, `ocpp:id:${serialNumber}`));
    expect(counter).toMatchObject({ failures: 10 });
    expect(counter!.lockedUntil).not.toBeNull();

    const rows = await summaries([s, other], eq(ocppLog.serialNumber, serialNumber));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ providerId: point.providerId, chargePointId: point.id });
    const summary = rows[0]!.payload as RefusalSummary;
    expect(summary).toMatchObject({ reason: 'badKey', httpStatus: 401, count: 202, reasons: { badKey: 10, locked: 192 } });
    expect(summary.addresses).toEqual(['127.0.0.1']);

    // The window and the lock pass (the database's clock decides: its rows are moved ten minutes back). A node
    // that never saw the lock lets the right key in; that success starts the identity over.
    await s.database.db.execute(sql`update login_attempt set window_start = window_start - interval '601 seconds',
      locked_until = locked_until - interval '601 seconds' where key = ${`ocpp:id:${serialNumber}`}`);
    const third = await startServer({ ocpp }, s);
    try {
      expect(await attempt(third, serialNumber, key)).toBe(101);
      expect(
        await s.database.db
          .select()
          .from(loginAttempt)
          .where(eq(loginAttempt.key, `ocpp:id:${serialNumber}`)),
      ).toEqual([]);
      // The next failure opens a new window, and a new summary row.
      expect(await attempt(third, serialNumber, 'wrong-again')).toBe(401);
      const after = await summaries([s, other, third], eq(ocppLog.serialNumber, serialNumber));
      expect(after).toHaveLength(2);
      expect(after[1]!.payload).toMatchObject({ reason: 'badKey', count: 1 });
    } finally {
      await third.close();
    }
  });

  it('a lock reached across both nodes holds on both, and both add to the same summary row', async () => {
    const { serialNumber, key } = await createPoint(s.database.db);
    for (let i = 0; i < 5; i++) expect(await attempt(s, serialNumber, 'wrong-key')).toBe(401);
    for (let i = 0; i < 5; i++) expect(await attempt(other, serialNumber, 'wrong-key')).toBe(401);
    expect(await attempt(s, serialNumber, key)).toBe(429);
    expect(await attempt(other, serialNumber, key)).toBe(429);
    const rows = await summaries([s, other], eq(ocppLog.serialNumber, serialNumber));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toMatchObject({ count: 12, reasons: { badKey: 10, locked: 2 } });
  });
});

describe('failed OCPP upgrades, per source address', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ ocpp: { ...defaults, connectMaxFailures: 1000, connectMaxFailuresPerIp: 20, connectLockSeconds: 60 } });
  });
  afterAll(() => s.close());

  it('made-up identities from one address: locked after the limit, and the locked ones add no rows', async () => {
    const good = await createPoint(s.database.db);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push(await attempt(s, `FLOOD-${i}`, 'x'));
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(404));
    expect(new Set(statuses.slice(20))).toEqual(new Set([429]));
    // The address is locked for every identity, a real one with its right key too.
    expect(await attempt(s, good.serialNumber, good.key)).toBe(429);
    const rows = await summaries([s], like(ocppLog.serialNumber, 'FLOOD-%'));
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r.providerId === null && (r.payload as RefusalSummary).count === 1)).toBe(true);
  });
});

describe('failed OCPP upgrades behind a trusted proxy (CSMS_TRUST_PROXY)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({
      // Two proxies: the test's socket (loopback) and one inside the network, which each charger's entry comes through.
      trustProxy: ['loopback', '10.0.0.0/8'],
      ocpp: { ...defaults, connectMaxFailures: 1000, connectMaxFailuresPerIp: 5, connectLockSeconds: 60 },
    });
  });
  afterAll(() => s.close());

  const from = (address: string, serialNumber: string, key?: string | null) =>
    TestCharger.connect(s.url, serialNumber, {
      options: {
        headers: {
          'x-forwarded-for': `${address}, 10.0.0.1`,
          ...(key ? { authorization: `Basic ${Buffer.from(`${serialNumber}:${key}`).toString('base64')}` } : {}),
        },
      },
    }).then(
      async (c) => {
        await c.close();
        return 101;
      },
      (e: { status?: number }) => e.status ?? 0,
    );

  it("counts the charger's forwarded address, not the proxy's", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push(await from('203.0.113.9', `PROXIED-${i}`));
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429, 429]);
    // Another charger behind the same proxy is not locked out.
    expect(await from('203.0.113.10', 'PROXIED-OTHER')).toBe(404);
    const good = await createPoint(s.database.db);
    expect(await from('198.51.100.1', good.serialNumber, good.key)).toBe(101);
    const [row] = await summaries([s], eq(ocppLog.serialNumber, 'PROXIED-0'));
    expect((row!.payload as RefusalSummary).addresses).toEqual(['203.0.113.9']);
  });
});
