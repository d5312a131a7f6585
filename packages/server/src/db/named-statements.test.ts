import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { plannedEachCall, statementNames } from './named-statements.js';

describe('statementNames', () => {
  it('names a text from its third run on, up to max texts; a refused text is sent unnamed from then on', () => {
    const names = statementNames({ after: 3, max: 2 });
    expect([names.nameOf('a'), names.nameOf('a')]).toEqual([undefined, undefined]);
    const a = names.nameOf('a');
    expect(a).toMatch(/^csms_\d+$/);
    expect(names.nameOf('a')).toBe(a);
    for (let i = 0; i < 3; i++) names.nameOf('b');
    expect(names.size).toBe(2);
    for (let i = 0; i < 5; i++) expect(names.nameOf('c')).toBeUndefined();
    names.refuse('a');
    expect(names.nameOf('a')).toBeUndefined();
  });

  it('forgets the counts of texts not yet named past `track` of them', () => {
    const names = statementNames({ after: 2, track: 2 });
    names.nameOf('a');
    names.nameOf('b');
    names.nameOf('c'); // the counts of a and b are dropped
    expect(names.nameOf('a')).toBeUndefined();
    expect(names.nameOf('a')).toMatch(/^csms_/);
  });
});

describe('the pool', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.close());

  const prepared = async (client: { query(text: string): Promise<{ rows: { statement: string }[] }> }) =>
    (await client.query('select statement from pg_prepared_statements')).rows.map((r) => r.statement);

  it('prepares a statement with parameters on the server from its third run, and answers as before', async () => {
    const client = await s.database.pool.connect();
    try {
      const text = `select $1::int + 1 as n /* ${Date.now()} */`;
      for (const i of [1, 2]) expect((await client.query(text, [i])).rows).toEqual([{ n: i + 1 }]);
      expect(await prepared(client)).not.toContain(text);
      expect((await client.query({ text, values: [3], rowMode: 'array' })).rows).toEqual([[4]]);
      expect(await prepared(client)).toContain(text);
      expect((await client.query(text, [4])).rows).toEqual([{ n: 5 }]);
      // Several commands in one text, without parameters: never named (the extended protocol refuses them).
      for (let i = 0; i < 4; i++) await client.query('select 1; select 2');
    } finally {
      client.release();
    }
  });

  /** What every connection of the pool holds prepared (each connection taken at once). */
  const preparedAnywhere = async () => {
    const { pool } = s.database;
    const clients = await Promise.all(Array.from({ length: Math.max(1, pool.totalCount) }, () => pool.connect()));
    try {
      return (await Promise.all(clients.map(prepared))).flat();
    } finally {
      for (const c of clients) c.release();
    }
  };

  it("leaves the console's statements unnamed: planned for their values at every call", async () => {
    const client = await s.database.pool.connect();
    try {
      const text = `select $1::int as n /* planned ${Date.now()} */`;
      await plannedEachCall(async () => {
        for (let i = 0; i < 4; i++) await client.query(text, [i]);
      });
      expect(await prepared(client)).not.toContain(text);
    } finally {
      client.release();
    }
    // Requests of the console, again and again (src/http/mount.ts runs each in plannedEachCall): the list's
    // statements stay unnamed, the lookup of its session by the token (src/http/sessions.ts) is named.
    const token = await s.login();
    for (let i = 0; i < 5; i++) expect((await s.call('GET', '/web/price/list?pageNum=1&pageSize=10', { token })).code).toBe(200);
    const named = await preparedAnywhere();
    expect(named.filter((t) => /from "price"/.test(t))).toEqual([]);
    expect(named.filter((t) => /from "session"/.test(t))).not.toEqual([]);
  });

  it('sends a statement unnamed after a schema change altered its result, once that call failed', async () => {
    const client = await s.database.pool.connect();
    try {
      await client.query('create table named_probe (id int)');
      await client.query('insert into named_probe values (1)');
      const text = 'select * from named_probe where id = $1';
      for (let i = 0; i < 3; i++) expect((await client.query(text, [1])).rows).toEqual([{ id: 1 }]);
      expect(await prepared(client)).toContain(text);
      await client.query('alter table named_probe add column note text');
      await expect(client.query(text, [1])).rejects.toThrow(/cached plan must not change result type/);
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1, note: null }]);
    } finally {
      await client.query('drop table if exists named_probe');
      client.release();
    }
  });
});
