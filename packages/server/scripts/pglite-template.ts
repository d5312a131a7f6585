// Part of the server's build: an empty PGlite database, created and migrated once, dumped to
// dist/ (src/db/pglite-template.ts). A first start unpacks it instead of running PGlite's initdb,
// which costs seconds and about 450 MB of memory more (bench/startup.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { migrate, openPglite } from '../src/db/client.js';
import { templatePath } from '../src/db/pglite-template.js';

const database = await openPglite();
try {
  await migrate(database);
  const blob = await database.dumpDataDir!();
  const file = templatePath();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, Buffer.from(await blob.arrayBuffer()));
  fs.renameSync(`${file}.tmp`, file);
} finally {
  await database.close();
}
