import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOperator } from '../../../test/fixtures.js';
import { ADMIN_PASSWORD, startServer, type TestServer } from '../../../test/harness.js';
import { loginAttempt, session, systemUser } from '../../db/schema.js';
import * as passwords from '../../lib/passwords.js';

// Every argon2 verification the sign-in makes is counted: the limit is on passwords checked, not on answers.
vi.mock('../../lib/passwords.js', async (importOriginal) => {
  const real = await importOriginal<typeof passwords>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});
const verifications = () => vi.mocked(passwords.verifyPassword).mock.calls.length;

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ trustProxy: 1, loginMaxAttempts: 5, loginMaxAttemptsPerIp: 1000 });
});
afterAll(() => s.close());

type Reply = { code: number; msg: string; data: unknown };
const from = (server: TestServer, ip: string, body: { username: string; password: string }) =>
  server.call<unknown>('POST', '/web/login', { body, headers: { 'x-forwarded-for': ip } }) as Promise<Reply>;
const tally = (replies: Reply[]) => ({
  wrong: replies.filter((r) => r.msg === 'Incorrect username or password').length,
  locked: replies.filter((r) => /^Too many failed sign-ins/.test(r.msg)).length,
});

describe('sign-in limits under concurrency', () => {
  it('forty parallel wrong passwords check at most the limit; the account is locked, the right password refused', async () => {
    const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'] });
    const before = verifications();
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => from(s, `198.51.100.${i + 1}`, { username: op.user.username, password: `bad-${i}` })),
    );
    expect(verifications() - before).toBe(s.config.loginMaxAttempts);
    expect(tally(replies)).toEqual({ wrong: s.config.loginMaxAttempts, locked: 40 - s.config.loginMaxAttempts });
    expect(replies.every((r) => r.code === 401 && r.data === null)).toBe(true);

    const right = await from(s, '198.51.100.99', { username: op.user.username, password: op.user.password });
    expect(right).toMatchObject({ code: 401, data: null });
    expect(right.msg).toMatch(/^Too many failed sign-ins, please try again in \d+ minutes$/);
    expect(verifications() - before).toBe(s.config.loginMaxAttempts);
    expect(await s.database.db.select().from(session).where(eq(session.userId, op.user.id))).toEqual([]);
  });

  it('holds across two nodes on one database', async () => {
    const other = await startServer({ trustProxy: 1, loginMaxAttempts: 5, loginMaxAttemptsPerIp: 1000 }, s);
    try {
      const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'] });
      const before = verifications();
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          from(i % 2 ? other : s, `198.51.100.${i + 1}`, { username: op.user.username, password: `bad-${i}` }),
        ),
      );
      expect(verifications() - before).toBe(5);
      expect(tally(replies)).toEqual({ wrong: 5, locked: 35 });
      for (const node of [s, other]) {
        const r = await from(node, '198.51.100.99', { username: op.user.username, password: op.user.password });
        expect(r.msg).toMatch(/^Too many failed sign-ins/);
      }
    } finally {
      await other.close();
    }
  });

  it('limits one address across accounts in parallel too', async () => {
    const c = await startServer({ trustProxy: 1, loginMaxAttempts: 5, loginMaxAttemptsPerIp: 8 });
    try {
      const before = verifications();
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, i) => from(c, '203.0.113.50', { username: `nobody${i}`, password: 'x' })),
      );
      // Unknown accounts are verified against a decoy hash, so they count as checks too.
      expect(verifications() - before).toBe(8);
      expect(tally(replies)).toEqual({ wrong: 8, locked: 32 });
      expect((await from(c, '203.0.113.50', { username: 'admin', password: ADMIN_PASSWORD })).msg).toMatch(/^Too many failed sign-ins/);
      expect((await from(c, '203.0.113.51', { username: 'admin', password: ADMIN_PASSWORD })).code).toBe(200);
    } finally {
      await c.close();
    }
  });
});

describe('what counts', () => {
  it('a success starts the account over', async () => {
    const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'] });
    const ip = '203.0.113.60';
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < s.config.loginMaxAttempts - 1; i++) {
        expect((await from(s, ip, { username: op.user.username, password: 'bad' })).msg).toBe('Incorrect username or password');
      }
      expect((await from(s, ip, { username: op.user.username, password: op.user.password })).code).toBe(200);
    }
  });

  it('successful sign-ins do not use up the address; failures do, and a success does not reset them', async () => {
    const c = await startServer({ trustProxy: 1, loginMaxAttempts: 100, loginMaxAttemptsPerIp: 3 });
    try {
      const ip = '203.0.113.61';
      const admin = { username: 'admin', password: ADMIN_PASSWORD };
      for (let i = 0; i < 5; i++) expect((await from(c, ip, admin)).code).toBe(200);
      expect((await from(c, ip, { username: 'admin', password: 'bad' })).msg).toBe('Incorrect username or password');
      expect((await from(c, ip, admin)).code).toBe(200);
      for (let i = 0; i < 2; i++)
        expect((await from(c, ip, { username: 'admin', password: 'bad' })).msg).toBe('Incorrect username or password');
      expect((await from(c, ip, admin)).msg).toMatch(/^Too many failed sign-ins/);
    } finally {
      await c.close();
    }
  });

  it('counts the address the trusted proxy saw, not what the client wrote before it in X-Forwarded-For', async () => {
    const c = await startServer({ trustProxy: 1, loginMaxAttempts: 100, loginMaxAttemptsPerIp: 3 });
    try {
      // A new address of the client's own making each time, then the one the proxy (here: the test's socket) appends.
      const wrong = (i: number) => from(c, `198.51.100.${i}, 203.0.113.80`, { username: 'admin', password: 'bad' });
      for (let i = 0; i < 3; i++) expect((await wrong(i)).msg).toBe('Incorrect username or password');
      expect((await wrong(3)).msg).toMatch(/^Too many failed sign-ins/);
    } finally {
      await c.close();
    }
  });

  it('the right password of a disabled account is not a failure', async () => {
    const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'] });
    await s.database.db.update(systemUser).set({ status: 0 }).where(eq(systemUser.id, op.user.id));
    for (let i = 0; i <= s.config.loginMaxAttempts; i++) {
      const r = await from(s, '203.0.113.65', { username: op.user.username, password: op.user.password });
      expect(r.msg).toBe('Account has been disabled, please contact the system administrator');
    }
  });

  it('a lock ends after its time and the count starts again', async () => {
    const op = await createOperator(s.database.db, { rolePaths: ['/dashboard'] });
    const ip = '203.0.113.70';
    for (let i = 0; i < 5; i++) await from(s, ip, { username: op.user.username, password: 'bad' });
    expect((await from(s, ip, { username: op.user.username, password: op.user.password })).msg).toMatch(/^Too many failed sign-ins/);
    // Move the account's window and lock into the past instead of waiting for them.
    await s.database.db
      .update(loginAttempt)
      .set({ windowStart: sql`now() - interval '1 day'`, lockedUntil: sql`now() - interval '1 minute'` })
      .where(eq(loginAttempt.key, `user:${op.user.username.toLowerCase()}`));
    expect((await from(s, ip, { username: op.user.username, password: 'bad' })).msg).toBe('Incorrect username or password');
    const [row] = await s.database.db
      .select()
      .from(loginAttempt)
      .where(eq(loginAttempt.key, `user:${op.user.username.toLowerCase()}`));
    expect(row).toMatchObject({ failures: 1 });
    expect((await from(s, ip, { username: op.user.username, password: op.user.password })).code).toBe(200);
  });
});
