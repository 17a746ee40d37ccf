// Two-factor sign-in on a panel of its own whose PANEL_PUBLIC_URL is http://localhost:<port>
// (WebAuthn needs a host name, not an IP address, and localhost is a secure context): set up
// an authenticator app with codes computed here from the secret shown, sign in with the
// password and a code, then add a passkey with Chromium's virtual authenticator and sign in
// with it alone.
import type { BrowserContext, Page } from '@playwright/test';
import { freePort } from './support/harness';
import { PASSWORD, USER } from './support/names';
import { openPage, shot } from './support/page';
import { stepNow, totp } from './support/totp';
import { allowHttp, test as base, expect } from './support/test';

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL('**/login');
  await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
}

const test = base.extend<{ page: Page }, { twoFactorPanel: { context: BrowserContext; page: Page } }>({
  twoFactorPanel: [
    async ({ harness, browser }, use) => {
      const port = await freePort();
      const baseURL = `http://localhost:${port}`;
      const panel = await harness.startPanel({ port, dirPrefix: 'gatehouse-e2e-2fa-', env: { PANEL_PUBLIC_URL: baseURL } });
      await panel.ready();
      const { context, page } = await openPage(browser, { baseURL });
      await use({ context, page });
      await context.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ twoFactorPanel }, use) => {
    await use(twoFactorPanel.page);
  },
});

test.describe.configure({ mode: 'serial' });

test.describe('twoFactor', () => {
  let secret = '';
  let lastStep = 0;

  test('two-factor: set up an authenticator app and keep the recovery codes', async ({ page }) => {
    await page.goto('/setup');
    await page.getByLabel('Username', { exact: true }).fill(USER);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.goto('/account');
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code for the authenticator app' }).waitFor();
    secret = await page.getByLabel('Secret', { exact: true }).inputValue();
    expect(/^[A-Z2-7]{16,}$/.test(secret), `secret ${secret} is not base32`).toBeTruthy();
    await shot(page, 'twofactor-enrol-desktop');
    lastStep = stepNow();
    await page.getByLabel('Code from the app', { exact: true }).fill(totp(secret, lastStep));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.nth(9).waitFor();
    expect((await codes.count()) === 10, `expected 10 recovery codes, got ${await codes.count()}`).toBeTruthy();
    await shot(page, 'twofactor-recovery-codes-desktop');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('10 unused recovery codes left.').waitFor();
  });

  test('two-factor: the password alone is not enough; the code from the app signs in', async ({ page }) => {
    allowHttp(['POST', /^\/api\/admin\/login\/totp$/, 401]);
    await signOut(page);
    await page.getByLabel('Username', { exact: true }).fill(USER);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in', exact: true }).waitFor();
    // The enrolment's code is spent: a wrong one first, then the next step's.
    await page.getByLabel('Authentication code', { exact: true }).fill(totp(secret, lastStep));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('The code is not right.').waitFor();
    await shot(page, 'twofactor-login-desktop');
    lastStep = Math.max(stepNow(), lastStep + 1);
    await page.getByLabel('Authentication code', { exact: true }).fill(totp(secret, lastStep));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  });

  test('two-factor: add a passkey with a virtual authenticator', async ({ page, twoFactorPanel }) => {
    const cdp = await twoFactorPanel.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    await page.goto('/account');
    await page.getByLabel('Passkey name', { exact: true }).fill('E2E authenticator');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey added').waitFor();
    await page.getByRole('table', { name: 'Passkeys' }).getByText('E2E authenticator').waitFor();
    await shot(page, 'twofactor-passkeys-desktop');
  });

  test('two-factor: sign in with the passkey alone (passwordless)', async ({ page }) => {
    await signOut(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  });

  test('two-factor: the settings page requires a second factor for everyone', async ({ page }) => {
    await page.goto('/settings');
    const sw = page.getByRole('switch', { name: 'Require two-factor sign-in for every administrator' });
    await sw.check({ force: true });
    await page.getByText('Sign-in security saved').waitFor();
    expect(await sw.isChecked(), 'the switch is off').toBeTruthy();
    await page.goto('/services');
    await page.getByRole('heading', { name: 'Services', exact: true }).waitFor();
  });
});
