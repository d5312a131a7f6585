/// <reference types="vitest/config" />
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

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

export default defineConfig({
  plugins: [
    react(),
    // A brotli and a gzip copy beside each built script, stylesheet and SVG, which the server sends to
    // a browser that accepts them (packages/server/src/http/console-assets.ts): a cold route travels as
    // about 0.5 MB instead of about 1.7 MB (issue 14 item 7), with nothing compressed per request.
    compression({
      include: /\.(js|css|svg)$/,
      threshold: 1024,
      algorithms: [defineAlgorithm('gzip', { level: 9 }), defineAlgorithm('brotliCompress')],
    }),
  ],
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
