// The end-to-end suite: the real panel binary (`make build` first), a real Traefik when a binary
// is at hand (TRAEFIK_BIN, or the one backend/scripts/traefik.sh caches) and Debian's Chromium,
// which Playwright drives without downloading a browser of its own. README.md tells more.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './e2e',
  testMatch: '*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  // The chain (main.spec.ts) runs in one worker; the panels of their own (managed mode, two-factor,
  // SSO sign-in, no Traefik) run beside it in the second. Each test drives a browser, a panel and
  // possibly Traefik: two workers are what a 2-core machine holds.
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // The longest test, the screenshot tour at one width, takes about 30 s on an idle machine.
  timeout: 120_000,
  reporter: [['list'], ['html', { open: 'never' }], ['./e2e/support/summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    headless: true,
    // The interface follows the browser's language; the suite reads English unless a test
    // asks for another (the screenshot tour does, for German).
    locale: 'en-US',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    // A failed test keeps its trace: every action with its DOM snapshot, network and console.
    // Without the screencast frames, which cost the run half again as long on a 2-core machine
    // (9.5 instead of 6.6 minutes); the failure itself is still captured by `screenshot`.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
});
