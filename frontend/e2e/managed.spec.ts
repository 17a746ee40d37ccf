// Managed mode: a panel of its own that manages Traefik's static configuration.
import { PASSWORD } from './support/names';
import { navTo, openPage, shot, viewports } from './support/page';
import { expect, test } from './support/test';

test.describe('managedMode', () => {
  test('managed mode: DNS provider, credentials and restart status', async ({ harness, browser }) => {
    const panel = await harness.startPanel({
      dirPrefix: 'gatehouse-e2e-managed-',
      env: { PANEL_MANAGED: 'true', PANEL_WRAPPER_TOKEN: 'e2e-wrapper-token-0123456789abcdef' },
    });
    await panel.ready();
    const { context, page } = await openPage(browser, { baseURL: panel.base });
    await page.goto('/setup');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    // A fresh install changed nothing and the wrapper restarts Traefik itself: no "restart Traefik".
    await page.getByText("Waiting for the Traefik wrapper's first report").waitFor();
    const restartHint = await page.getByText(/restart (the )?Traefik/i).count();
    expect(restartHint === 0, 'a fresh managed install tells the user to restart Traefik').toBeTruthy();
    await shot(page, 'managed-fresh-dashboard-desktop');
    await navTo(page, 'Managed Traefik');
    await page.getByRole('heading', { name: 'Managed Traefik', exact: true }).waitFor();
    await page.getByText('Waiting for the wrapper', { exact: true }).waitFor();
    await page.getByLabel('Challenge', { exact: true }).selectOption('dns');
    await page.getByLabel('DNS provider', { exact: true }).selectOption('cloudflare');
    await page.getByText('CF_DNS_API_TOKEN: missing').waitFor();
    await page.getByLabel('ACME e-mail', { exact: true }).fill('admin@example.test');
    await page.getByRole('button', { name: 'Save static configuration' }).click();
    await page.getByText('Static configuration saved').waitFor();
    const secret = page.getByLabel('CF_DNS_API_TOKEN', { exact: false });
    await secret.first().fill('e2e-secret-token');
    await page.getByRole('button', { name: 'Save credentials' }).click();
    await page.getByText('Credentials saved').waitFor();
    await page.getByText('CF_DNS_API_TOKEN: set').waitFor();
    const value = await secret.first().inputValue();
    expect(value === '', 'a saved credential is shown again').toBeTruthy();
    await shot(page, 'managed-desktop');
    await page.setViewportSize(viewports.phone);
    await shot(page, 'managed-phone');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow <= 1, `managed page overflows by ${overflow}px at phone width`).toBeTruthy();
    await context.close();
  });
});
