// Two-factor sign-in on a panel of its own whose PANEL_PUBLIC_URL is http://localhost:<port>
// (WebAuthn needs a host name, not an IP address, and localhost is a secure context): set up
// an authenticator app with codes computed here from the secret shown, sign in with the
// password and a code, then add a passkey with Chromium's virtual authenticator and sign in
// with it alone.
import { createHmac } from 'node:crypto';
import { PASSWORD, USER } from '../fixtures.mjs';
import { freePort } from '../harness.mjs';
import { openPage, shot } from '../page.mjs';
import { expect } from '../runner.mjs';

/** RFC 4648 base32 (no padding), as otpauth secrets are written. */
function base32(secret) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP: HMAC-SHA1 over the 30-second step, dynamically truncated to six digits. */
function totp(secret, step) {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32(secret)).update(msg).digest();
  const off = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(off) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const stepNow = () => Math.floor(Date.now() / 30_000);

async function signOut(page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL('**/login');
  await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
}

export async function twoFactor(t, harness) {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const panel = await harness.startPanel({ port, dirPrefix: 'gatehouse-e2e-2fa-', env: { PANEL_PUBLIC_URL: base } });
  await panel.ready();
  const { context, page } = await openPage(harness.browser, t, { baseURL: base });
  let secret = '';
  let lastStep = 0;

  await t.step('two-factor: set up an authenticator app and keep the recovery codes', async () => {
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
    expect(/^[A-Z2-7]{16,}$/.test(secret), `secret ${secret} is not base32`);
    await shot(page, 'twofactor-enrol-desktop');
    lastStep = stepNow();
    await page.getByLabel('Code from the app', { exact: true }).fill(totp(secret, lastStep));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.nth(9).waitFor();
    expect((await codes.count()) === 10, `expected 10 recovery codes, got ${await codes.count()}`);
    await shot(page, 'twofactor-recovery-codes-desktop');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('10 unused recovery codes left.').waitFor();
  });

  await t.step(
    'two-factor: the password alone is not enough; the code from the app signs in',
    async () => {
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
    },
    { allowHttp: [['POST', /^\/api\/admin\/login\/totp$/, 401]] },
  );

  await t.step('two-factor: add a passkey with a virtual authenticator', async () => {
    const cdp = await context.newCDPSession(page);
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

  await t.step('two-factor: sign in with the passkey alone (passwordless)', async () => {
    await signOut(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  });

  await t.step('two-factor: the settings page requires a second factor for everyone', async () => {
    await page.goto('/settings');
    const sw = page.getByRole('switch', { name: 'Require two-factor sign-in for every administrator' });
    await sw.check({ force: true });
    await page.getByText('Sign-in security saved').waitFor();
    expect(await sw.isChecked(), 'the switch is off');
    await page.goto('/services');
    await page.getByRole('heading', { name: 'Services', exact: true }).waitFor();
  });
  await context.close();
}
