// Part of the server's build: an empty PGlite database, created and migrated once, left in dist/
// as a data directory (src/db/pglite-template.ts). A first start copies it instead of running
// PGlite's initdb, which costs seconds and about 450 MB of memory more (bench/startup.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { createTemplate } from '../src/db/client.js';
import { templatePath } from '../src/db/pglite-template.js';

const dir = templatePath();
const dist = path.dirname(dir);
fs.mkdirSync(dist, { recursive: true });
// Earlier builds' templates (another PGlite version, or the archive this directory replaced).
for (const old of fs.readdirSync(dist)) {
  if (old.startsWith('pglite-template-') && path.join(dist, old) !== dir) fs.rmSync(path.join(dist, old), { recursive: true, force: true });
}
await createTemplate(dir);
