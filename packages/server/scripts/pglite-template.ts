// Part of the server's build: an empty PGlite database, created and migrated once, left in dist/
// as a data directory (src/db/pglite-template.ts). A first start copies it instead of running
// PGlite's initdb, which costs seconds and about 450 MB of memory more (bench/startup.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { migrate, openPglite, unpackDataDir } from '../src/db/client.js';
import { templatePath } from '../src/db/pglite-template.js';

const database = await openPglite();
try {
  await migrate(database);
  const blob = await database.dumpDataDir!();
  const dir = templatePath();
  const dist = path.dirname(dir);
  fs.mkdirSync(dist, { recursive: true });
  // Earlier builds' templates (another PGlite version, or the archive this directory replaced).
  for (const old of fs.readdirSync(dist)) {
    if (old.startsWith('pglite-template-') && path.join(dist, old) !== dir)
      fs.rmSync(path.join(dist, old), { recursive: true, force: true });
  }
  const archive = `${dir}.tar.tmp`;
  fs.writeFileSync(archive, Buffer.from(await blob.arrayBuffer()));
  try {
    await unpackDataDir(archive, dir);
  } finally {
    fs.rmSync(archive, { force: true });
  }
} finally {
  await database.close();
}
