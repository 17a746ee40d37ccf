// The administrator's own account: the session list across browsers, signing one out,
// changing the password (which signs the others out) and signing in with the new one.
// The password is set back at the end so the scenarios after this one sign in as before.
import type { Browser, Page } from '@playwright/test';
import { allowHttp, expect, test, type HttpRule } from '../support/chain';
import { PASSWORD, USER } from '../support/names';
import { openPage, shot, viewports } from '../support/page';

const NEW_PASSWORD = 'staple-battery-horse-2';

/** Signs in from a fresh browser context and returns it, on the dashboard. */
async function secondBrowser(browser: Browser, base: string) {
  const { context, page } = await openPage(browser, { baseURL: base, viewport: viewports.phone });
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(USER);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  return { context, page };
}

/** True once the other browser's session is gone: the panel sends it to sign in. */
async function signedOut(other: Page) {
  await other.goto('/services');
  await other.waitForURL('**/login?next=%2Fservices');
  await other.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
}

async function changePassword(page: Page, current: string, next: string) {
  await page.getByLabel('Current password', { exact: true }).fill(current);
  await page.getByLabel('New password', { exact: true }).fill(next);
  await page.getByLabel('Confirm new password', { exact: true }).fill(next);
  await page.getByRole('button', { name: 'Change password' }).click();
}

export function account() {
  test.describe('account', () => {
    // The other browser's dashboard keeps polling (Traefik's status every 5 s, the traffic
    // history every minute): a poll between the sign-out and its next page answers 401 too.
    const sessionsGone: HttpRule[] = [
      ['GET', /^\/api\/admin\/me$/, 401],
      ['GET', /^\/api\/services$/, 401],
      ['GET', /^\/api\/proxy\/status$/, 401],
      ['GET', /^\/api\/traffic(\/services)?$/, 401],
    ];

    test('the account page lists this browser and another one, and signs the other out', async ({ page, browser, stack }) => {
      const { base } = stack;
      allowHttp(...sessionsGone);
      const other = await secondBrowser(browser, base);
      await page.goto('/');
      await page.getByRole('banner').getByRole('link', { name: USER }).click();
      await page.waitForURL('**/account');
      await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
      const rows = page.getByRole('table').getByRole('row');
      await rows.nth(2).waitFor();
      expect((await rows.count()) === 3, `expected a header and 2 sessions, got ${await rows.count()} rows`).toBeTruthy();
      await page.getByText('This device', { exact: true }).waitFor();
      await page.getByText('Headless Chrome on Linux').first().waitFor();
      await shot(page, 'account-two-sessions-desktop');
      await page.getByRole('button', { name: /^Sign out Headless Chrome on Linux/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign out this session?' });
      await dialog.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.getByText('Session signed out').waitFor();
      await rows.nth(2).waitFor({ state: 'detached' });
      await signedOut(other.page);
      await other.context.close();
    });

    test('a wrong current password shows on its field', async ({ page }) => {
      allowHttp(['PUT', /^\/api\/admin\/me\/password$/, 422]);
      await changePassword(page, 'not-the-password', NEW_PASSWORD);
      const current = page.getByLabel('Current password', { exact: true });
      await page.locator('.field-error').first().waitFor();
      expect((await current.getAttribute('aria-invalid')) === 'true', 'current password is not marked invalid').toBeTruthy();
      await shot(page, 'account-error-desktop');
      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      await shot(page, 'account-error-dark-desktop');
      await page.getByRole('button', { name: 'Switch to light theme' }).click();
    });

    test('changing the password signs the other sessions out and keeps this one', async ({ page, browser, stack }) => {
      const { base } = stack;
      allowHttp(...sessionsGone);
      const other = await secondBrowser(browser, base);
      await changePassword(page, PASSWORD, NEW_PASSWORD);
      await page.getByText('Password changed; your other sessions were signed out').waitFor();
      expect((await page.getByLabel('Current password', { exact: true }).inputValue()) === '', 'the form was not cleared').toBeTruthy();
      await signedOut(other.page);
      await other.context.close();
      await page.getByRole('table').getByRole('row').nth(1).waitFor();
      await page.getByRole('table').getByRole('row').nth(2).waitFor({ state: 'detached' });
      await page.setViewportSize(viewports.phone);
      await shot(page, 'account-password-changed-phone');
      await page.setViewportSize(viewports.desktop);
    });

    test('the new password signs in and the old one does not', async ({ page }) => {
      allowHttp(['POST', /^\/api\/admin\/login$/, 401]);
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL('**/login');
      await page.getByLabel('Username', { exact: true }).fill(USER);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('The username or password is incorrect.').waitFor();
      await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      // Back to the shared password for the scenarios that follow.
      await page.goto('/account');
      await changePassword(page, NEW_PASSWORD, PASSWORD);
      await page.getByText('Password changed; your other sessions were signed out').waitFor();
    });
  });
}
