import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate, openPglite, openPostgres } from '../src/db/client.js';
import type { TestProject } from 'vitest/node';

/**
 * Migrate once, then let every test file start from a copy: a PGlite data-dir dump on the
 * embedded default, a template database when DATABASE_URL points at PostgreSQL.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = `csms_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const u = new URL(url);
    u.pathname = `/${template}`;
    const db = openPostgres(u.toString());
    await migrate(db);
    await db.close();
    project.provide('pgTemplate', template);
    return async () => {
      const res = await admin.query<{ datname: string }>(`select datname from pg_database where datname like 'csms_t_${process.pid}_%'`);
      for (const r of res.rows) await admin.query(`drop database if exists ${r.datname} with (force)`);
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }
  const db = await openPglite();
  await migrate(db);
  const blob = await db.dumpDataDir!();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'csms-tpl-')), 'template.tar');
  fs.writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  await db.close();
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate?: string;
    pgliteTemplate?: string;
  }
}
