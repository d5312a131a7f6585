import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { serverRoot } from '../config.js';

/** The installed PGlite's version (its package.json is not exported: found beside its entry, in dist/). */
const pgliteVersion = (
  JSON.parse(
    fs.readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '../package.json'), 'utf8'),
  ) as {
    version: string;
  }
).version;

/**
 * The migrated empty database the build leaves in dist/ (scripts/pglite-template.ts), a data
 * directory named by the PGlite version that made it: a template of another version is never loaded.
 */
export const templatePath = () => path.join(serverRoot, 'dist', `pglite-template-${pgliteVersion}`);
