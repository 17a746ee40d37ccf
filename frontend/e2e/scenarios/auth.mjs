// Administrator sign-in: first-run setup, sign out and in, and the lockout after repeated
// wrong passwords (which locks sign-in for the run, so it comes last).
import { PASSWORD, USER } from '../fixtures.mjs';
import { openPage, shot, viewports } from '../page.mjs';
import { expect } from '../runner.mjs';

const loginFailed = ['POST', /^\/api\/admin\/login$/, 401];

/** Creates the administrator on a fresh install and leaves the page signed in. */
export async function signIn(t, page, base) {
  await t.step('first run goes to setup and creates the administrator', async () => {
    await page.goto('/');
    await page.waitForURL('**/setup');
    await shot(page, 'setup-desktop');
    await page.getByLabel('Username', { exact: true }).fill(USER);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.waitForURL(`${base}/`);
  });

  await t.step('sign out returns to the sign-in page', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  });

  await t.step(
    'a wrong password is refused with a message',
    async () => {
      await page.getByLabel('Username', { exact: true }).fill(USER);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('The username or password is incorrect.').waitFor();
      await shot(page, 'login-error-desktop');
    },
    { allowHttp: [loginFailed] },
  );

  await t.step('sign in reaches the dashboard', async () => {
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  });
}

/** Locks sign-in from a fresh browser context by failing it repeatedly. */
export async function lockout(t, browser, base) {
  await t.step(
    'repeated wrong passwords lock sign-in with a clear message',
    async () => {
      const { context, page } = await openPage(browser, t, { baseURL: base, viewport: viewports.phone });
      await page.goto('/login');
      await page.getByLabel('Username', { exact: true }).fill(USER);
      for (let i = 0; i < 8; i++) {
        await page.getByLabel('Password', { exact: true }).fill(`wrong-${i}`);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':not([disabled])')).waitFor();
        if (await page.getByText('Sign-in temporarily locked').isVisible()) break;
      }
      await page.getByText('Sign-in temporarily locked').waitFor();
      // The server's own message, which says when to retry.
      await page.getByText(/try again in \d+ minutes?/i).waitFor();
      await shot(page, 'login-locked-phone');
      // Keyboard: the lock screen is usable without a mouse and focus is visible.
      await page.mouse.click(5, 5);
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(() => {
        const el = document.activeElement;
        const cs = el ? getComputedStyle(el) : null;
        return { tag: el?.tagName, outline: cs?.outlineStyle, width: cs?.outlineWidth };
      });
      expect(focus.tag && focus.tag !== 'BODY' && focus.outline !== 'none', `no visible keyboard focus: ${JSON.stringify(focus)}`);
      await context.close();
    },
    { allowHttp: [loginFailed, ['POST', /^\/api\/admin\/login$/, 429]] },
  );
}
