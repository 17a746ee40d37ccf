// A panel of its own without Traefik's API: the setup steps on every page that needs it, the
// live check turning green at a poll, resolvers not claimed as discovered, the version, the
// request id of a server error and the setup page's password hint. Its tests share one page, in
// order.
import type { Page } from '@playwright/test';
import { PASSWORD, USER } from './support/names';
import { openPage, shot, viewports } from './support/page';
import { allowHttp, test as base, eventually, expect } from './support/test';

const overflowX = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

const test = base.extend<{ page: Page }, { bare: { base: string; page: Page } }>({
  bare: [
    async ({ harness, browser }, use) => {
      const panel = await harness.startPanel({ dirPrefix: 'gatehouse-e2e-bare-' });
      await panel.ready();
      const { context, page } = await openPage(browser, { baseURL: panel.base });
      await use({ base: panel.base, page });
      await context.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ bare }, use) => {
    await use(bare.page);
  },
});

test.describe.configure({ mode: 'serial' });

test.describe('notConnected', () => {
  test('no Traefik: the setup page shows the password rule once, and an honest version', async ({ page }) => {
    await page.goto('/setup');
    await page.getByLabel('Username', { exact: true }).fill(USER);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByText('At least 10 characters').first().waitFor();
    const n = await page.getByText(/^At least 10 characters\.?$/).count();
    expect(n === 1, `the password rule is shown ${n} times`).toBeTruthy();
    const footer = (await page.locator('.auth-footer').textContent()) ?? '';
    expect(/development build|Gatehouse v\d+\.\d+\.\d+/.test(footer) && !/ v[0-9a-f]{7}\b/.test(footer), `version: ${footer}`).toBeTruthy();
    await shot(page, 'rough-setup-hint-desktop');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  });

  test('no Traefik: runtime pages give the static configuration and a live poll check', async ({ page, bare }) => {
    const pages: [string, string][] = [
      ['/runtime', 'runtime'],
      ['/certificates', 'certificates'],
      ['/traefik-metrics', 'metrics'],
      ['/conflicts', 'conflicts'],
    ];
    for (const [path, name] of pages) {
      await page.setViewportSize(viewports.desktop);
      await page.goto(path);
      await page.getByText("Traefik's API is not connected").waitFor();
      // The snippet comes from GET /api/proxy/status, which may answer after the page.
      await page.getByTestId('setup-provider-snippet').filter({ hasText: '/api/proxy/config' }).waitFor();
      expect(((await page.getByTestId('setup-api-env').textContent()) ?? '').includes('PANEL_PROXY_API_URL='), `${path}: no API variable`).toBeTruthy();
      await page.getByRole('button', { name: 'Copy traefik.yml' }).waitFor();
      expect(((await page.getByTestId('setup-provider-snippet').textContent()) ?? '').includes('prometheus'), `${path}: no metrics in traefik.yml`).toBeTruthy();
      await shot(page, `rough-${name}-not-connected-desktop`);
      await page.setViewportSize(viewports.phone);
      expect((await overflowX(page)) <= 0, `${path} is ${await overflowX(page)} px wider than the phone`).toBeTruthy();
      await shot(page, `rough-${name}-not-connected-phone`);
    }
    await page.setViewportSize(viewports.desktop);
    await page.goto('/runtime');
    const check = page.getByTestId('poll-check');
    await check.waitFor();
    expect((await check.getAttribute('data-state')) === 'waiting', `before a poll: ${await check.getAttribute('data-state')}`).toBeTruthy();
    // Poll the configuration as Traefik's HTTP provider does.
    const res = await fetch(`${bare.base}/api/proxy/config`);
    expect(res.ok, `GET /api/proxy/config: ${res.status}`).toBeTruthy();
    const green = await eventually(async () => (await check.getAttribute('data-state')) === 'ok', { intervalMs: 500, timeoutMs: 12000 });
    expect(green, `after a poll: ${await check.getAttribute('data-state')}`).toBeTruthy();
    await shot(page, 'rough-runtime-polled-desktop');
  });

  test('no Traefik: the domain form does not claim discovered resolvers', async ({ page }) => {
    await page.goto('/domains');
    await page.getByRole('button', { name: 'Add domain' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a domain' });
    await dialog.getByText(/Traefik not connected/).waitFor();
    expect((await dialog.getByText(/Discovered in Traefik/).count()) === 0, 'the hint claims resolvers discovered in Traefik').toBeTruthy();
    await shot(page, 'rough-domain-resolvers-desktop', { fullPage: false });
    await page.setViewportSize(viewports.phone);
    await shot(page, 'rough-domain-resolvers-phone', { fullPage: false });
    await page.setViewportSize(viewports.desktop);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const footer = (await page.locator('.sidebar-footer').textContent()) ?? '';
    expect(/^Gatehouse (development build \S+|v\d+\.\d+\.\d+)/.test(footer.trim()), `sidebar version: ${footer}`).toBeTruthy();
  });

  test('a server error shows its request id, ready to copy', async ({ page }) => {
    allowHttp(['GET', /^\/api\/sessions$/, 500]);
    await page.route('**/api/sessions*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'internal error', requestId: 'req-e2e-42' } }) }),
    );
    await page.goto('/sessions');
    await page.getByTestId('request-id').first().waitFor();
    const text = (await page.getByTestId('request-id').first().textContent()) ?? '';
    expect(text.includes('req-e2e-42'), `request id line: ${text}`).toBeTruthy();
    await page.getByRole('button', { name: 'Copy ID' }).first().waitFor();
    await shot(page, 'rough-request-id-desktop');
    await page.setViewportSize(viewports.phone);
    await shot(page, 'rough-request-id-phone');
    await page.setViewportSize(viewports.desktop);
    await page.unroute('**/api/sessions*');
  });
});
