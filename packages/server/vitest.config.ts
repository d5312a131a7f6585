import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Test the contract's and the simulator's source, never a stale build.
  resolve: {
    alias: [
      { find: /^@csms\/contract$/, replacement: fileURLToPath(new URL('../contract/src/index.ts', import.meta.url)) },
      { find: /^@csms\/contract\/settings$/, replacement: fileURLToPath(new URL('../contract/src/settings.ts', import.meta.url)) },
      { find: /^@csms\/simulator$/, replacement: fileURLToPath(new URL('../simulator/src/index.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Each file gets its own database (a PGlite loaded from the migrated template, or a
    // PostgreSQL database cloned from a template); two at a time fit the 2-core machines.
    maxWorkers: 2,
    // Tests wait for their conditions; this only catches one that hangs. Next to other builds on a
    // shared 2-core machine an integration test of a few dozen requests can take a minute.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
