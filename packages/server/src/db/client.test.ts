import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { pack } from 'tar-stream';
import { migrate, openDatabase, openPglite, unpackDataDir } from './client.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csms-db-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const marker = async (database: Awaited<ReturnType<typeof openDatabase>>) =>
  (
    (await database.db.execute(sql`select count(*)::int as n from provider where name = 'from the template'`)) as unknown as {
      rows: { n: number }[];
    }
  ).rows[0]!.n;

// PGlite only: the PostgreSQL pass (DATABASE_URL) has nothing here to test.
describe.skipIf(process.env.DATABASE_URL)('the embedded database in its own thread', { timeout: 120_000 }, () => {
  it("starts an empty data directory from the build's template, keeps what is written, and never loads the template again", async () => {
    // A template with a row no migration makes, so that its use shows.
    const source = await openPglite();
    await migrate(source);
    await source.db.execute(sql`insert into provider (name, type) values ('from the template', 'common')`);
    const archive = path.join(dir, 'template.tar');
    fs.writeFileSync(archive, Buffer.from(await (await source.dumpDataDir!()).arrayBuffer()));
    await source.close();
    // As the build leaves it: a data directory.
    const template = path.join(dir, 'template');
    await unpackDataDir(archive, template);

    const dataDir = path.join(dir, 'data');
    const first = await openDatabase({ dataDir, template });
    expect(await marker(first)).toBe(1);
    await first.db.execute(sql`insert into provider (name, type) values ('written after', 'common')`);
    await first.close();

    // A restart opens what is there: the row written after the start is kept, the template row not doubled.
    const again = await openDatabase({ dataDir, template });
    expect(await marker(again)).toBe(1);
    const after = (await again.db.execute(sql`select count(*)::int as n from provider where name = 'written after'`)) as unknown as {
      rows: { n: number }[];
    };
    expect(after.rows[0]!.n).toBe(1);
    await again.close();
  });

  it('creates the database itself when the template cannot be loaded', async () => {
    // A directory that is not a data directory (PG_VERSION missing): nothing of it is kept.
    const template = path.join(dir, 'broken');
    fs.mkdirSync(path.join(template, 'base'), { recursive: true });
    const database = await openDatabase({ dataDir: path.join(dir, 'data-broken'), template });
    expect(await marker(database)).toBe(0);
    await database.close();
    expect(fs.readdirSync(dir).filter((n) => n.includes('.unpacking-'))).toEqual([]);
  });

  it('answers statements the database refuses without losing its one connection', async () => {
    const database = await openDatabase({ dataDir: path.join(dir, 'data-errors'), template: path.join(dir, 'none') });
    await expect(database.db.execute(sql`select 1 / 0`)).rejects.toThrow();
    await expect(database.db.execute(sql`insert into provider (name, type) values (${'x'.repeat(500)}, 'common')`)).rejects.toThrow();
    const ok = (await database.db.execute(sql`select 2 as two`)) as unknown as { rows: { two: number }[] };
    expect(ok.rows[0]!.two).toBe(2);
    await database.close();
  });

  it('runs with the configured page cache, not the data directory’s 128 MB', async () => {
    const database = await openDatabase({ dataDir: path.join(dir, 'data-cache'), template: path.join(dir, 'none'), pgliteCacheMb: 24 });
    const shown = (await database.db.execute(sql`show shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
    expect(shown.rows[0]!.shared_buffers).toBe('24MB');
    await database.close();
  });
});

/** An archive of `members` (name → content; a trailing slash makes a directory), cut to `keep` bytes if given. */
async function archive(members: Record<string, string>, keep?: number): Promise<Buffer> {
  const p = pack();
  for (const [name, content] of Object.entries(members)) {
    if (name.endsWith('/')) p.entry({ name, type: 'directory' });
    else p.entry({ name }, content);
  }
  p.finalize();
  const chunks: Buffer[] = [];
  for await (const c of p) chunks.push(c as Buffer);
  const whole = Buffer.concat(chunks);
  return keep === undefined ? whole : whole.subarray(0, keep);
}

describe('unpacking a data directory archive', () => {
  const leftovers = (parent: string) => fs.readdirSync(parent).filter((n) => n.includes('.unpacking-'));

  it('writes every member under the directory, named from its root as PGlite dumps them', async () => {
    const file = path.join(dir, 'small.tar');
    fs.writeFileSync(file, await archive({ '/PG_VERSION': '17\n', '/base/': '', '/base/1/1249': 'catalog' }));
    const target = path.join(dir, 'unpacked', 'pglite');
    await unpackDataDir(file, target);
    expect(fs.readFileSync(path.join(target, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(fs.readFileSync(path.join(target, 'base/1/1249'), 'utf8')).toBe('catalog');
    expect(leftovers(path.dirname(target))).toEqual([]);
  });

  it('leaves nothing behind when the archive is cut short, is not a data directory, or names a path outside it', async () => {
    const whole = await archive({ '/PG_VERSION': '17\n', '/base/1/1249': 'x'.repeat(5000) });
    const cases = {
      cut: whole.subarray(0, 2048),
      notData: await archive({ '/base/1/1249': 'catalog' }),
      escape: await archive({ '/PG_VERSION': '17\n', '/../../escaped': 'no' }),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      const file = path.join(dir, `${name}.tar`);
      fs.writeFileSync(file, bytes);
      const target = path.join(dir, `refused-${name}`, 'pglite');
      await expect(unpackDataDir(file, target), name).rejects.toThrow();
      expect(fs.existsSync(target), name).toBe(false);
      expect(leftovers(path.dirname(target)), name).toEqual([]);
    }
    expect(fs.existsSync(path.join(dir, 'escaped'))).toBe(false);
  });
});
