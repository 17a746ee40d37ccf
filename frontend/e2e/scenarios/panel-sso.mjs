// Administrators sign in to the panel with SSO, on a panel of its own (its public URL is
// its listening address, so the provider can send the browser back to it) in front of a
// small OpenID provider run here: set the provider up, add a rule, sign in from a fresh
// browser, then turn passwords off and see the login page offer SSO only.
import { PASSWORD, USER } from '../fixtures.mjs';
import { freePort } from '../harness.mjs';
import { startOidcProvider } from '../oidc-provider.mjs';
import { openPage, shot } from '../page.mjs';
import { expect } from '../runner.mjs';

const CLIENT_ID = 'gatehouse-panel';
const CLIENT_SECRET = 'panel-client-secret';

export async function panelSso(t, harness, browser) {
  const provider = await startOidcProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    user: { sub: 'ada-1815', preferred_username: 'ada', email: 'ada@example.test', email_verified: true, groups: ['ops'] },
  });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const panel = await harness.startPanel({
    port,
    env: { PANEL_PUBLIC_URL: base, PANEL_ADMIN_USER: USER, PANEL_ADMIN_PASSWORD: PASSWORD },
    dirPrefix: 'gatehouse-e2e-sso-',
  });
  const contexts = [];
  try {
    await panel.ready();
    const owner = await openPage(browser, t, { baseURL: base });
    contexts.push(owner.context);
    const page = owner.page;

    await t.step('panel sign-in: set up the provider and a rule giving the admin role', async () => {
      await page.goto('/login');
      await page.getByLabel('Username', { exact: true }).fill(USER);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      await page.goto('/settings');
      await page.getByRole('switch', { name: 'Enable single sign-on' }).check({ force: true });
      await page.getByLabel('Issuer URL', { exact: true }).fill(provider.issuer);
      await page.getByLabel('Client ID', { exact: true }).fill(CLIENT_ID);
      await page.getByLabel(/^Client secret/).fill(CLIENT_SECRET);
      await page.getByRole('button', { name: 'Save single sign-on' }).click();
      await page.getByText('Single sign-on saved').waitFor();
      await page.reload();
      await page.getByRole('switch', { name: 'Sign in to the panel with SSO' }).check({ force: true });
      const redirect = await page.getByLabel('Panel sign-in redirect URL to register at the identity provider').inputValue();
      expect(redirect === `${base}/api/admin/sso/callback`, `redirect URL ${redirect}`);
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.getByLabel('Rule 1 value', { exact: true }).fill('ops');
      await page.getByRole('switch', { name: /^Create administrators on first sign-in/ }).check({ force: true });
      await page.getByRole('button', { name: 'Save panel sign-in' }).click();
      await page.getByText('Panel sign-in saved').waitFor();
      await shot(page, 'settings-panel-sign-in-desktop');
    });

    await t.step('a fresh browser signs in with SSO and lands on the dashboard', async () => {
      const other = await openPage(browser, t, { baseURL: base });
      contexts.push(other.context);
      await other.page.goto('/login');
      await other.page.getByRole('link', { name: 'Sign in with SSO' }).click();
      await other.page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      await other.page.waitForURL(`${base}/`);
      await other.page.getByRole('banner').getByRole('link', { name: 'ada' }).waitFor();
    });

    await t.step('with passwords off the login page offers SSO only', async () => {
      await page.getByRole('switch', { name: 'Allow signing in with a password' }).click({ force: true });
      const dialog = page.getByRole('dialog', { name: 'Turn off password sign-in?' });
      await dialog.getByRole('button', { name: 'Turn off passwords' }).click();
      await page.getByRole('button', { name: 'Save panel sign-in' }).click();
      await page.getByText('Panel sign-in saved').waitFor();
      const fresh = await openPage(browser, t, { baseURL: base });
      contexts.push(fresh.context);
      await fresh.page.goto('/login');
      await fresh.page.getByRole('link', { name: 'Sign in with SSO' }).waitFor();
      await fresh.page.getByText('gatehouse admin local-passwords on').waitFor();
      expect((await fresh.page.getByLabel('Password', { exact: true }).count()) === 0, 'the password form is still shown');
      await shot(fresh.page, 'login-sso-only-desktop');
    });
  } finally {
    for (const c of contexts) await c.close();
    await provider.close();
  }
}
