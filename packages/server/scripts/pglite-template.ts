// Part of the server's build: an empty PGlite database, created and migrated once, left in dist/
// as a data directory (src/db/pglite-template.ts). A first start copies it instead of running
// PGlite's initdb, which costs seconds and about 450 MB of memory more (bench/startup.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TIME_ZONE } from '../src/config.js';
import { createTemplate } from '../src/db/client.js';
import { templatePath } from '../src/db/pglite-template.js';
import { createStatisticsRepo } from '../src/modules/statistics/statistics.repo.js';

const dir = templatePath();
const dist = path.dirname(dir);
fs.mkdirSync(dist, { recursive: true });
// Earlier builds' templates (another PGlite version, or the archive this directory replaced).
for (const old of fs.readdirSync(dist)) {
  if (old.startsWith('pglite-template-') && path.join(dist, old) !== dir) fs.rmSync(path.join(dist, old), { recursive: true, force: true });
}
// Its day totals (empty, as the database is) are cut in the default zone already: a first start in that zone
// has none to build (≈ 0.1 s of its start), one in another zone rebuilds them as a zone change does.
await createTemplate(dir, async (database) => {
  await createStatisticsRepo({ db: database.db }).ensureDayTotals(DEFAULT_TIME_ZONE);
});
