import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 18080);

/**
 * End-to-end tests in Debian's Chromium (never a downloaded browser) against the real server
 * serving the built console, on a fresh PGlite in a temporary directory.
 */
export default defineConfig({
  testDir: 'e2e',
  // Specs wait for what they expect to see; these limits only catch what never comes. On a shared
  // 2-core CI machine next to other builds a screen can take many seconds to answer, and a walk
  // through a dozen screens minutes (test.slow() triples the test limit for the longest walks).
  timeout: 180_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
    viewport: { width: 1440, height: 900 },
    // The console then turns antd's animations off (providers.tsx): on a busy machine a dialog still
    // zooming in can look settled to Playwright, whose click then lands where the button is not yet.
    reducedMotion: 'reduce',
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node e2e/serve.mjs',
    url: `http://127.0.0.1:${port}/prod-api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { E2E_PORT: String(port) },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
