// The chain main.spec.ts runs: one panel per worker with a real Traefik in front of it (when a
// binary is at hand) and a tiny upstream, driven by one signed-in page that every test of the
// chain shares, in order. What one scenario hands to the next (the service's id, the credential
// set) is kept in `handed`.
import type { BrowserContext, Page } from '@playwright/test';
import { freePort, type Traefik } from './harness';
import { openPage } from './page';
import { test as base } from './test';

export { allowHttp, eventually, expect, type HttpRule } from './test';

export interface Stack {
  base: string;
  /** The running Traefik, or null without a binary: the runtime pages are then checked "not connected". */
  traefik: Traefik | null;
  upstreamPort: number;
  context: BrowserContext;
  page: Page;
}

/** What one scenario of the chain hands to the next. */
export const handed = {
  /** The id of "Wiki", the service createService makes. */
  serviceId: '',
  /** The label of the credential set createCredentialSet makes, as the set picker shows it. */
  credentialSet: '',
};

export const test = base.extend<{ page: Page }, { stack: Stack }>({
  stack: [
    async ({ harness, browser }, use) => {
      // Traefik reads the panel's config and the panel reads Traefik's API: both ports first.
      const port = await freePort();
      const upstream = await harness.startUpstream();
      const traefik = await harness.startTraefik(port);
      // Traefik reaches the panel on its listen address: the admin domain the settings scenario
      // sets does not resolve here, and forwardAuth would follow it otherwise.
      const env: Record<string, string> = traefik ? { PANEL_PROXY_API_URL: traefik.apiURL, PANEL_INTERNAL_URL: `http://127.0.0.1:${port}` } : {};
      const panel = await harness.startPanel({ port, env });
      await panel.ready();
      console.log(`panel on ${panel.base}, data in ${panel.dir}${traefik ? '' : '; no Traefik binary found: runtime pages are checked in their "not connected" state'}`);
      const { context, page } = await openPage(browser, { baseURL: panel.base });
      await use({ base: panel.base, traefik, upstreamPort: upstream.port, context, page });
      await context.close();
    },
    { scope: 'worker' },
  ],
  // The chain's tests share one page: each goes on where the one before it left off.
  page: async ({ stack }, use) => {
    await use(stack.page);
  },
});

/** The running Traefik; skips the test when there is none. */
export function needTraefik(stack: Stack): Traefik {
  test.skip(!stack.traefik, 'no Traefik binary (TRAEFIK_BIN)');
  return stack.traefik as Traefik;
}
