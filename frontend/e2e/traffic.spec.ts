// Traffic over time, end to end: a panel of its own behind a real Traefik, requests sent
// through Traefik to a service, the panel's per-minute store of Traefik's metrics, and the
// charts that draw them: the service's Traffic tab (light, dark, phone), the dashboard's
// panel, the services list's sparkline and the access log's strip. Needs a Traefik binary; the
// first stored minute takes up to two minutes to arrive.
import type { Page } from '@playwright/test';
import { freePort, type Traefik } from './support/harness';
import { PASSWORD, USER } from './support/names';
import { openPage, shot, viewports } from './support/page';
import { test as base, eventually, expect } from './support/test';

const HOST = 'shop.example.test';
const SENT = 60;

const test = base.extend<{ page: Page }, { stack: { page: Page; traefik: Traefik | null; serviceId: string } }>({
  stack: [
    async ({ harness, browser }, use) => {
      const port = await freePort();
      const upstream = await harness.startUpstream();
      const traefik = await harness.startTraefik(port);
      const env: Record<string, string> = traefik ? { PANEL_PROXY_API_URL: traefik.apiURL, PANEL_INTERNAL_URL: `http://127.0.0.1:${port}` } : {};
      const panel = await harness.startPanel({ port, env, dirPrefix: 'gatehouse-e2e-traffic-' });
      await panel.ready();
      const { context, page } = await openPage(browser, { baseURL: panel.base });
      await page.goto('/setup');
      await page.getByLabel('Username', { exact: true }).fill(USER);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Create administrator' }).click();
      await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      const domain = await api<{ id: string }>(page, 'POST', '/api/domains', { domain: 'example.test', isDefault: true, https: { redirect: true, hsts: { maxAge: 0 } } });
      const service = await api<{ id: string }>(page, 'POST', '/api/services', {
        name: 'Shop',
        domainId: domain.id,
        hostnames: [{ type: 'subdomain', value: 'shop' }],
        targets: [{ scheme: 'http', host: '127.0.0.1', port: upstream.port }],
      });
      await use({ page, traefik, serviceId: service.id });
      await context.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ stack }, use) => {
    await use(stack.page);
  },
});

async function api<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  const res = await page.evaluate(
    async ([m, u, b]) => {
      const r = await fetch(u as string, { method: m as string, headers: { 'Content-Type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
      return { status: r.status, text: await r.text() };
    },
    [method, url, body] as const,
  );
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return (res.text ? JSON.parse(res.text) : null) as T;
}

type History = { state: string; reason: string; totals: { requests: number }; series: { requests2xx: (number | null)[] } };

const overflowX = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe.configure({ mode: 'serial' });

test.describe('trafficCharts', () => {
  test('the Traffic tab charts the requests sent through Traefik', async ({ page, stack }) => {
    test.skip(!stack.traefik, 'no Traefik binary (TRAEFIK_BIN)');
    test.setTimeout(300_000);
    const traefik = stack.traefik as Traefik;
    const { serviceId } = stack;
    const routed = await eventually(() => traefik.get(HOST, 1), { intervalMs: 500 });
    expect(routed === 1, 'Traefik never routed the service through the panel').toBeTruthy();
    const ok = await traefik.get(HOST, SENT);
    expect(ok === SENT, `only ${ok}/${SENT} requests succeeded`).toBeTruthy();

    // The panel stores Traefik's figures once a minute: wait for the minute that holds them.
    const started = Date.now();
    const history = await eventually(
      async () => {
        const h = await api<History>(page, 'GET', `/api/services/${serviceId}/traffic?range=1h`);
        return h.state === 'ok' && h.totals.requests >= SENT ? h : null;
      },
      { timeoutMs: 200_000, intervalMs: 5000 },
    );
    expect(history, 'the history never held the requests sent').toBeTruthy();
    console.log(`traffic: the first stored minute arrived after ${Math.round((Date.now() - started) / 1000)} s`);
    const h = history as History;
    const counted = h.series.requests2xx.reduce<number>((a, v) => a + (v ?? 0), 0);
    // Every request answered 200: the 2xx bars add up to the total.
    expect(counted === h.totals.requests, `2xx bars sum to ${counted}, the total is ${h.totals.requests}`).toBeTruthy();

    await page.setViewportSize(viewports.desktop);
    await page.goto(`/services/${serviceId}`);
    await page.getByRole('navigation', { name: 'Service sections' }).getByRole('link', { name: 'Traffic', exact: true }).click();
    await page.waitForURL(`**/services/${serviceId}/traffic`);
    await page.getByRole('button', { name: '1 h', exact: true }).click();
    await page.waitForURL(/range=1h/);
    const totals = page.getByTestId('traffic-totals');
    await expect(totals).toContainText(String(h.totals.requests));
    // Status classes, latency and bytes are drawn; decisions say why they are empty (the
    // service has no protection); health as Traefik reports it.
    const status = page.getByRole('img', { name: 'Requests per step by status class' });
    await expect(status.locator('canvas')).toHaveCount(1);
    await expect(page.getByRole('img', { name: 'Latency percentiles p50, p95 and p99' }).locator('canvas')).toHaveCount(1);
    await expect(page.getByRole('img', { name: 'Bytes in and out per step' }).locator('canvas')).toHaveCount(1);
    await page.getByText('No forward-auth decisions').waitFor();
    await page.getByRole('img', { name: /^Backend health: / }).or(page.getByText('No health checks', { exact: true })).waitFor();
    const box = await status.locator('canvas').boundingBox();
    expect(box && box.width > 300 && box.height > 100, `the status chart is ${box?.width}x${box?.height}`).toBeTruthy();

    // Hovering the bar with the requests shows its time and values in the legend.
    const legend = page.locator('.time-chart').first().locator('.chart-legend');
    for (let x = box!.x + box!.width - 2; x > box!.x; x -= 4) {
      await page.mouse.move(x, box!.y + box!.height / 2);
      const v = await legend.locator('[data-series="requests2xx"] strong').textContent().catch(() => null);
      if (v && v !== '—' && v !== '0') break;
    }
    await expect(legend.locator('.chart-legend-time')).not.toBeEmpty();
    await expect(legend.locator('[data-series="requests2xx"] strong')).not.toHaveText(/^(—|0)$/);
    await shot(page, 'traffic-tab-hover-desktop', { fullPage: false });

    // Dragging across the chart zooms in: the window goes into the URL and Reset zoom leaves it.
    await page.mouse.move(box!.x + box!.width * 0.5, box!.y + 40);
    await page.mouse.down();
    await page.mouse.move(box!.x + box!.width * 0.8, box!.y + 40, { steps: 6 });
    await page.mouse.up();
    await page.waitForURL(/from=.*to=/);
    await page.getByTestId('zoomed').waitFor();
    await page.getByRole('button', { name: 'Reset zoom' }).click();
    await page.waitForURL((u) => !u.searchParams.has('from'));
    await expect(status.locator('canvas')).toHaveCount(1);
    await page.mouse.move(0, 0);
    await shot(page, 'traffic-tab-desktop');

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(status.locator('canvas')).toHaveCount(1);
    await shot(page, 'traffic-tab-dark-desktop');
    await page.setViewportSize(viewports.phone);
    await expect(status.locator('canvas')).toHaveCount(1);
    expect(await overflowX(page), 'the Traffic tab overflows a phone').toBeLessThanOrEqual(0);
    const phoneBox = await status.locator('canvas').boundingBox();
    expect(phoneBox && phoneBox.width < viewports.phone.width, `the chart is ${phoneBox?.width} px wide on a phone`).toBeTruthy();
    await shot(page, 'traffic-tab-dark-phone');
    await page.emulateMedia({ colorScheme: 'light' });
    await shot(page, 'traffic-tab-phone');
    await page.setViewportSize(viewports.desktop);
  });

  test('the dashboard, the services list and the access log draw the same history', async ({ page, stack }) => {
    test.skip(!stack.traefik, 'no Traefik binary (TRAEFIK_BIN)');
    await page.setViewportSize(viewports.desktop);
    await page.goto('/');
    const busiest = page.getByTestId('top-busiest');
    await busiest.getByRole('link', { name: 'Shop' }).waitFor();
    await expect(busiest.getByRole('img', { name: /^Shop: .* in the last 24 hours$/ })).toHaveCount(1);
    await expect(page.getByTestId('traffic-panel').getByRole('img', { name: 'Requests per step by status class' }).locator('canvas')).toHaveCount(1);
    await shot(page, 'traffic-dashboard-desktop');
    await page.setViewportSize(viewports.phone);
    expect(await overflowX(page), 'the dashboard overflows a phone').toBeLessThanOrEqual(0);
    await shot(page, 'traffic-dashboard-phone');
    await page.setViewportSize(viewports.desktop);

    await page.goto('/services');
    // The table's row (phones get the cards below it instead).
    await expect(page.locator('.service-table').getByTestId('service-traffic')).toHaveCount(1);
    await page.getByRole('img', { name: /^Shop: .* requests in the last 24 hours$/ }).first().waitFor();

    await page.goto('/access-log');
    const strip = page.getByTestId('decisions-strip');
    await strip.waitFor();
    // No protection: the panel decided nothing, and the strip says so.
    await strip.getByText('No forward-auth decisions').or(strip.getByText('No traffic yet')).waitFor();
    await shot(page, 'traffic-access-log-desktop');
  });
});
