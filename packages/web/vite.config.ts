/// <reference types="vitest/config" />
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const api = process.env.CSMS_API_URL ?? 'http://127.0.0.1:8080';

/** What the error log calls this build: CSMS_BUILD_ID, else the commit, else the time it was built. */
function buildId(): string {
  if (process.env.CSMS_BUILD_ID) return process.env.CSMS_BUILD_ID;
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return new Date().toISOString();
  }
}

/**
 * Writes a gzip and a brotli copy beside each built script, stylesheet and SVG, which the server
 * sends to a browser that accepts them (@fastify/static's preCompressed, app.ts): a console route
 * then travels as about 0.5 MB instead of about 1.7 MB (issue 14 item 7), without compressing per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'csms-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const assets = path.join(outDir, 'assets');
      for (const name of fs.readdirSync(assets)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const file = path.join(assets, name);
        const raw = fs.readFileSync(file);
        if (raw.length < 1024) continue;
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(raw, { level: 9 }));
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  define: { 'import.meta.env.VITE_CSMS_BUILD_ID': JSON.stringify(buildId()) },
  // The contract is consumed as source: one type-checked copy, no build step in between.
  resolve: { alias: { '@csms/contract': fileURLToPath(new URL('../contract/src/index.ts', import.meta.url)) } },
  server: { port: 5173, proxy: { '/prod-api': { target: api, changeOrigin: true } } },
  // The manifest feeds the weight check (scripts/check-weight.mjs, weight-budget.json).
  build: { outDir: 'dist', chunkSizeWarningLimit: 2000, manifest: true },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    // Tests wait for their conditions (test-setup.ts); these limits only catch a test that hangs.
    // A screen test of a dozen steps takes seconds alone and minutes next to other builds on a
    // shared 2-core machine.
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
