// The sign-in portal on a panel of its own: the panel at http://localhost:<port>, the portal at
// http://auth.localhost:<port> (Chromium resolves every *.localhost name to the loopback address
// and treats it as a secure context, so passkeys work there). A person without a panel role
// signs in on the portal with a password, reaches the launcher and the account page, adds a
// passkey with Chromium's virtual authenticator, signs out and signs in with the passkey alone;
// no administration route answers on the portal's host.
import type { BrowserContext, Page } from '@playwright/test';
import { freePort } from './support/harness';
import { PASSWORD, USER } from './support/names';
import { openPage, shot } from './support/page';
import { allowHttp, test as base, expect } from './support/test';

const PERSON = 'casey';

const test = base.extend<{ page: Page }, { portal: { context: BrowserContext; page: Page; panelURL: string; portalURL: string } }>({
  portal: [
    async ({ harness, browser }, use) => {
      const port = await freePort();
      const panelURL = `http://localhost:${port}`;
      const portalURL = `http://auth.localhost:${port}`;
      const panel = await harness.startPanel({
        port,
        dirPrefix: 'gatehouse-e2e-portal-',
        env: { PANEL_PUBLIC_URL: panelURL, PANEL_PORTAL_URL: portalURL },
      });
      await panel.ready();
      const { context, page } = await openPage(browser, { baseURL: panelURL });
      await use({ context, page, panelURL, portalURL });
      await context.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ portal }, use) => {
    await use(portal.page);
  },
});

test.describe.configure({ mode: 'serial' });

/** The launcher's answer: the list, or (before the launcher's data route exists) its plain error. */
async function launcherShown(page: Page) {
  await expect(page.getByRole('heading', { name: 'Your services' }).or(page.getByText('No services yet')).or(page.getByText('Your services could not be loaded'))).toBeVisible();
}

test.describe('portal', () => {
  test('portal: the admin names the portal host and adds a person without a panel role', async ({ page }) => {
    await page.goto('/setup');
    await page.getByLabel('Username', { exact: true }).fill(USER);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.goto('/settings');
    await page.getByLabel('Portal host').fill('auth.localhost');
    await page.getByLabel('Name', { exact: true }).fill('Family');
    await page.getByRole('button', { name: 'Save portal' }).click();
    await page.getByText('Sign-in portal saved').waitFor();
    const status = await page.evaluate(async ([username, password]) => {
      const res = await fetch('/api/people', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username, password, panelRole: 'none' }),
      });
      return res.status;
    }, [PERSON, PASSWORD]);
    expect(status).toBe(201);
  });

  test('portal: a person signs in on the portal host with a password and comes back to rd', async ({ page, portal }) => {
    allowHttp(['GET', /^\/api\/admin\/me$/, 401], ['GET', /^\/api\/portal\/services$/, 404]);
    await page.goto(`${portal.portalURL}/account`);
    await page.waitForURL(/\/login\?rd=/);
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    await expect(page.getByText('Family', { exact: true })).toBeVisible();
    await shot(page, 'portal-sign-in-desktop');
    await page.getByLabel('Username', { exact: true }).fill(PERSON);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${portal.portalURL}/account`);
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Services' }).click();
    await launcherShown(page);
    await shot(page, 'portal-launcher-desktop');
  });

  test('portal: no administration route answers on the portal host', async ({ page, portal }) => {
    allowHttp(['GET', /^\/api\//, 404]);
    // Asked from the portal's page, with the person's portal session.
    expect(new URL(page.url()).host).toBe(new URL(portal.portalURL).host);
    const statuses = await page.evaluate(async (paths) => {
      const out: Record<string, number> = {};
      for (const path of paths) out[path] = (await fetch(path)).status;
      return out;
    }, ['/api/services', '/api/people', '/api/config', '/api/system', '/api/admin/tokens', '/api/audit']);
    for (const [path, status] of Object.entries(statuses)) expect(status, path).toBe(404);
  });

  test('portal: add a passkey, sign out, sign in with the passkey alone', async ({ page, portal }) => {
    allowHttp(['GET', /^\/api\/admin\/me$/, 401], ['GET', /^\/api\/portal\/services$/, 404]);
    const cdp = await portal.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    await page.goto(`${portal.portalURL}/account`);
    await page.getByLabel('Passkey name', { exact: true }).fill('Phone');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey added').waitFor();
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL(/\/login/);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await launcherShown(page);
    expect(new URL(page.url()).host).toBe(new URL(portal.portalURL).host);
  });
});
