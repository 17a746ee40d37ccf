// Administrator sign-in: first-run setup, sign out and in, and the lockout after repeated
// wrong passwords (which locks sign-in for the run, so it comes last).
import { allowHttp, expect, test, type HttpRule } from '../support/chain';
import { PASSWORD, USER } from '../support/names';
import { openPage, shot, viewports } from '../support/page';

const loginFailed: HttpRule = ['POST', /^\/api\/admin\/login$/, 401];

/** Creates the administrator on a fresh install and leaves the page signed in. */
export function signIn() {
  test.describe('signIn', { tag: '@base' }, () => {
    test('first run goes to setup and creates the administrator', async ({ page, stack }) => {
      await page.goto('/');
      await page.waitForURL('**/setup');
      await shot(page, 'setup-desktop');
      await page.getByLabel('Username', { exact: true }).fill(USER);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Create administrator' }).click();
      await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      await page.waitForURL(`${stack.base}/`);
    });

    test('sign out returns to the sign-in page', async ({ page }) => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL('**/login');
      await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    });

    test('a wrong password is refused with a message', async ({ page }) => {
      allowHttp(loginFailed);
      await page.getByLabel('Username', { exact: true }).fill(USER);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('The username or password is incorrect.').waitFor();
      await shot(page, 'login-error-desktop');
    });

    test('sign in reaches the dashboard', async ({ page }) => {
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    });
  });
}

/** Locks sign-in from a fresh browser context by failing it repeatedly. */
export function lockout() {
  test.describe('lockout', () => {
    test('repeated wrong passwords lock sign-in with a clear message', async ({ browser, stack }) => {
      allowHttp(loginFailed, ['POST', /^\/api\/admin\/login$/, 429]);
      const { context, page } = await openPage(browser, { baseURL: stack.base, viewport: viewports.phone });
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
      expect(focus.tag && focus.tag !== 'BODY' && focus.outline !== 'none', `no visible keyboard focus: ${JSON.stringify(focus)}`).toBeTruthy();
      await context.close();
    });
  });
}
