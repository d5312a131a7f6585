/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.CSMS_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  // The contract is consumed as source: one type-checked copy, no build step in between.
  resolve: { alias: { '@csms/contract': fileURLToPath(new URL('../contract/src/index.ts', import.meta.url)) } },
  server: { port: 5173, proxy: { '/prod-api': { target: api, changeOrigin: true } } },
  build: { outDir: 'dist', chunkSizeWarningLimit: 2000 },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
});
