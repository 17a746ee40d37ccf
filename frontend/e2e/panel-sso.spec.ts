// Administrators sign in to the panel with SSO, on a panel of its own (its public URL is
// its listening address, so the provider can send the browser back to it) in front of a
// small OpenID provider run here: set the provider up, add a rule, sign in from a fresh
// browser, then turn passwords off and see the login page offer SSO only.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { freePort } from './support/harness';
import { PASSWORD, USER } from './support/names';
import { startOidcProvider } from './support/oidc-provider';
import { openPage, shot } from './support/page';
import { test as base, expect } from './support/test';

const CLIENT_ID = 'gatehouse-panel';
const CLIENT_SECRET = 'panel-client-secret';

interface SsoPanel {
  base: string;
  issuer: string;
  page: Page;
  /** A fresh browser on the panel, closed when the worker ends. */
  fresh: (browser: Browser) => Promise<Page>;
}

const test = base.extend<{ page: Page }, { ssoPanel: SsoPanel }>({
  ssoPanel: [
    async ({ harness, browser }, use) => {
      const provider = await startOidcProvider({
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        user: { sub: 'ada-1815', preferred_username: 'ada', email: 'ada@example.test', email_verified: true, groups: ['ops'] },
      });
      const port = await freePort();
      const baseURL = `http://127.0.0.1:${port}`;
      const panel = await harness.startPanel({
        port,
        env: { PANEL_PUBLIC_URL: baseURL, PANEL_ADMIN_USER: USER, PANEL_ADMIN_PASSWORD: PASSWORD },
        dirPrefix: 'gatehouse-e2e-sso-',
      });
      await panel.ready();
      const contexts: BrowserContext[] = [];
      const fresh = async (b: Browser) => {
        const { context, page } = await openPage(b, { baseURL });
        contexts.push(context);
        return page;
      };
      const page = await fresh(browser);
      await use({ base: baseURL, issuer: provider.issuer, page, fresh });
      for (const c of contexts) await c.close();
      await provider.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ ssoPanel }, use) => {
    await use(ssoPanel.page);
  },
});

test.describe.configure({ mode: 'serial' });

test.describe('panelSso', () => {
  test('panel sign-in: set up the provider and a rule giving the admin role', async ({ page, ssoPanel }) => {
    await page.goto('/login');
    await page.getByLabel('Username', { exact: true }).fill(USER);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Enable single sign-on' }).check({ force: true });
    await page.getByLabel('Issuer URL', { exact: true }).fill(ssoPanel.issuer);
    await page.getByLabel('Client ID', { exact: true }).fill(CLIENT_ID);
    await page.getByLabel(/^Client secret/).fill(CLIENT_SECRET);
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await page.getByText('Single sign-on saved').waitFor();
    await page.reload();
    await page.getByRole('switch', { name: 'Sign in to the panel with SSO' }).check({ force: true });
    const redirect = await page.getByLabel('Panel sign-in redirect URL to register at the identity provider').inputValue();
    expect(redirect === `${ssoPanel.base}/api/admin/sso/callback`, `redirect URL ${redirect}`).toBeTruthy();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('Rule 1 value', { exact: true }).fill('ops');
    await page.getByRole('switch', { name: /^Create administrators on first sign-in/ }).check({ force: true });
    await page.getByRole('button', { name: 'Save panel sign-in' }).click();
    await page.getByText('Panel sign-in saved').waitFor();
    await shot(page, 'settings-panel-sign-in-desktop');
  });

  test('a fresh browser signs in with SSO and lands on the dashboard', async ({ browser, ssoPanel }) => {
    const other = await ssoPanel.fresh(browser);
    await other.goto('/login');
    await other.getByRole('link', { name: 'Sign in with SSO' }).click();
    await other.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await other.waitForURL(`${ssoPanel.base}/`);
    await other.getByRole('banner').getByRole('link', { name: 'ada' }).waitFor();
  });

  test('with passwords off the login page offers SSO only', async ({ page, browser, ssoPanel }) => {
    await page.getByRole('switch', { name: 'Allow signing in with a password' }).click({ force: true });
    const dialog = page.getByRole('dialog', { name: 'Turn off password sign-in?' });
    await dialog.getByRole('button', { name: 'Turn off passwords' }).click();
    await page.getByRole('button', { name: 'Save panel sign-in' }).click();
    await page.getByText('Panel sign-in saved').waitFor();
    const fresh = await ssoPanel.fresh(browser);
    await fresh.goto('/login');
    await fresh.getByRole('link', { name: 'Sign in with SSO' }).waitFor();
    await fresh.getByText('gatehouse admin local-passwords on').waitFor();
    expect((await fresh.getByLabel('Password', { exact: true }).count()) === 0, 'the password form is still shown').toBeTruthy();
    await shot(fresh, 'login-sso-only-desktop');
  });
});
