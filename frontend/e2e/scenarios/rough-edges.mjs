// The UI's rough edges: phone-width layout, the setup steps on pages that need Traefik's
// API (with a live check that turns green when Traefik polls), resolvers only "discovered"
// with evidence, request ids on server errors, one password hint, an honest version, a
// revoked link that says so, and search and filters that survive a reload.
import { PASSWORD, USER } from '../fixtures.mjs';
import { freePort } from '../harness.mjs';
import path from 'node:path';
import { artifacts, openPage, shot, viewports } from '../page.mjs';
import { eventually, expect } from '../runner.mjs';

const overflowX = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Dashboard, services list and a target row at 390 px: nothing wider than the screen. */
export async function phoneLayout(t, page, serviceId) {
  await t.step('phone width: the dashboard, the services filter bar and a target row fit the screen', async () => {
    await page.setViewportSize(viewports.phone);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Wiki' }).first().waitFor();
    expect((await overflowX(page)) <= 0, `dashboard is ${await overflowX(page)} px wider than the phone`);
    await shot(page, 'rough-dashboard-phone');

    await page.goto('/services');
    const filters = page.getByRole('group', { name: 'Filter by status' });
    await filters.waitFor();
    for (const b of await filters.getByRole('button').all()) {
      const box = await b.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewports.phone.width, `filter "${await b.textContent()}" is clipped: ${JSON.stringify(box)}`);
    }
    expect((await overflowX(page)) <= 0, `services page is ${await overflowX(page)} px wider than the phone`);
    await shot(page, 'rough-services-phone');

    await page.goto(`/services/${serviceId}`);
    const host = page.getByLabel('Target 1 host', { exact: true });
    await host.waitFor();
    const [scheme, hostBox, port] = [
      await page.getByLabel('Target 1 scheme', { exact: true }).boundingBox(),
      await host.boundingBox(),
      await page.getByLabel('Target 1 port', { exact: true }).boundingBox(),
    ];
    expect(Math.abs(scheme.y - hostBox.y) < 4, `scheme and host are not on one line: ${scheme.y} vs ${hostBox.y}`);
    expect(port.y >= hostBox.y, `the port (${port.y}) sits above the host (${hostBox.y})`);
    expect(hostBox.width >= 200, `host field is only ${hostBox.width} px wide`);
    expect(scheme.width >= 80 && port.width >= 80, `scheme (${scheme.width} px) or port (${port.width} px) squeezed`);
    await page.getByTestId('target-row-0').screenshot({ path: path.join(artifacts, 'rough-target-row-phone.png') });
    await shot(page, 'rough-target-phone');

    await page.setViewportSize(viewports.desktop);
    await page.goto('/');
    await page.getByRole('link', { name: 'Wiki' }).first().waitFor();
    await shot(page, 'rough-dashboard-desktop');
  });
}

/** Search and filters are kept in the URL and survive a reload. */
export async function urlState(t, page) {
  await t.step('search and filters survive a reload (services list, access log)', async () => {
    await page.setViewportSize(viewports.desktop);
    await page.goto('/services');
    await page.getByLabel('Search services', { exact: true }).fill('wik');
    await page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: 'Enabled' }).click();
    await page.waitForURL((u) => u.searchParams.get('q') === 'wik' && u.searchParams.get('status') === 'enabled');
    await page.reload();
    const search = page.getByLabel('Search services', { exact: true });
    await search.waitFor();
    expect((await search.inputValue()) === 'wik', `search after reload: ${await search.inputValue()}`);
    const pressed = await page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: 'Enabled' }).getAttribute('aria-pressed');
    expect(pressed === 'true', `Enabled filter after reload: aria-pressed=${pressed}`);
    await page.getByRole('link', { name: 'Wiki' }).first().waitFor();
    await shot(page, 'rough-services-filtered-reload-desktop');

    await page.goto('/access-log');
    await page.getByLabel('Decision', { exact: true }).selectOption('denied');
    await page.waitForURL((u) => u.searchParams.get('decision') === 'denied');
    await page.reload();
    await page.getByLabel('Decision', { exact: true }).waitFor();
    const decision = await page.getByLabel('Decision', { exact: true }).inputValue();
    expect(decision === 'denied', `decision after reload: ${decision}`);
  });
}

/** A revoked link says "revoked", not when it would have expired. */
export async function revokedLink(t, page, serviceId) {
  await t.step('a revoked shared link says revoked, with when', async () => {
    await page.setViewportSize(viewports.desktop);
    await page.goto(`/services/${serviceId}/security`);
    await page.getByRole('heading', { name: 'Shared links', exact: true }).waitFor();
    const off = page.getByRole('switch', { name: /Accept shared links/ });
    if (await off.isVisible()) {
      await off.click({ force: true });
      await page.getByRole('switch', { name: 'Shared links are accepted' }).waitFor();
    }
    await page.getByRole('button', { name: 'New link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New shared link' });
    await dialog.getByLabel('Note', { exact: true }).fill('for Carol');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await page.getByRole('dialog', { name: 'Link ready' }).getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Revoke link for Carol' }).click();
    await page.getByRole('dialog', { name: 'Revoke this link?' }).getByRole('button', { name: 'Revoke link' }).click();
    const row = page.getByRole('row', { name: /for Carol/ });
    const ok = await eventually(async () => /^revoked /.test((await row.getByTestId('link-validity').textContent()) ?? ''), { intervalMs: 300 });
    expect(ok, `validity of the revoked link: ${await row.getByTestId('link-validity').textContent()}`);
    await shot(page, 'rough-revoked-link-desktop');
    await page.setViewportSize(viewports.phone);
    await shot(page, 'rough-revoked-link-phone');
    await page.setViewportSize(viewports.desktop);
  });
}

/**
 * A panel of its own without Traefik: the setup steps on every page that needs Traefik's
 * API, the live check turning green at a poll, resolvers not claimed as discovered, the
 * version, the request id of a server error and the setup page's password hint.
 */
export async function notConnected(t, harness) {
  const port = await freePort();
  const panel = await harness.startPanel({ port, dirPrefix: 'gatehouse-e2e-bare-' });
  await panel.ready();
  const { context, page } = await openPage(harness.browser, t, { baseURL: panel.base });
  try {
    await t.step('no Traefik: the setup page shows the password rule once, and an honest version', async () => {
      await page.goto('/setup');
      await page.getByLabel('Username', { exact: true }).fill(USER);
      await page.getByLabel('Password', { exact: true }).fill('short');
      await page.getByRole('button', { name: 'Create administrator' }).click();
      await page.getByText('At least 10 characters').first().waitFor();
      const n = await page.getByText(/^At least 10 characters\.?$/).count();
      expect(n === 1, `the password rule is shown ${n} times`);
      const footer = (await page.locator('.auth-footer').textContent()) ?? '';
      expect(/development build|Gatehouse v\d+\.\d+\.\d+/.test(footer) && !/ v[0-9a-f]{7}\b/.test(footer), `version: ${footer}`);
      await shot(page, 'rough-setup-hint-desktop');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Create administrator' }).click();
      await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    });

    await t.step('no Traefik: runtime pages give the static configuration and a live poll check', async () => {
      for (const [path, name] of [
        ['/runtime', 'runtime'],
        ['/certificates', 'certificates'],
        ['/metrics', 'metrics'],
        ['/conflicts', 'conflicts'],
      ]) {
        await page.setViewportSize(viewports.desktop);
        await page.goto(path);
        await page.getByText("Traefik's API is not connected").waitFor();
        // The snippet comes from GET /api/proxy/status, which may answer after the page.
        await page.getByTestId('setup-provider-snippet').filter({ hasText: '/api/proxy/config' }).waitFor();
        expect(((await page.getByTestId('setup-api-env').textContent()) ?? '').includes('PANEL_PROXY_API_URL='), `${path}: no API variable`);
        await page.getByRole('button', { name: 'Copy provider snippet' }).waitFor();
        await shot(page, `rough-${name}-not-connected-desktop`);
        await page.setViewportSize(viewports.phone);
        expect((await overflowX(page)) <= 0, `${path} is ${await overflowX(page)} px wider than the phone`);
        await shot(page, `rough-${name}-not-connected-phone`);
      }
      await page.setViewportSize(viewports.desktop);
      await page.goto('/runtime');
      const check = page.getByTestId('poll-check');
      await check.waitFor();
      expect((await check.getAttribute('data-state')) === 'waiting', `before a poll: ${await check.getAttribute('data-state')}`);
      // Poll the configuration as Traefik's HTTP provider does.
      const res = await fetch(`${panel.base}/api/proxy/config`);
      expect(res.ok, `GET /api/proxy/config: ${res.status}`);
      const green = await eventually(async () => (await check.getAttribute('data-state')) === 'ok', { intervalMs: 500, timeoutMs: 12000 });
      expect(green, `after a poll: ${await check.getAttribute('data-state')}`);
      await shot(page, 'rough-runtime-polled-desktop');
    });

    await t.step('no Traefik: the domain form does not claim discovered resolvers', async () => {
      await page.goto('/domains');
      await page.getByRole('button', { name: 'Add domain' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add a domain' });
      await dialog.getByText(/Traefik not connected/).waitFor();
      expect((await dialog.getByText(/Discovered in Traefik/).count()) === 0, 'the hint claims resolvers discovered in Traefik');
      await shot(page, 'rough-domain-resolvers-desktop', { fullPage: false });
      await page.setViewportSize(viewports.phone);
      await shot(page, 'rough-domain-resolvers-phone', { fullPage: false });
      await page.setViewportSize(viewports.desktop);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      const footer = (await page.locator('.sidebar-footer').textContent()) ?? '';
      expect(/^Gatehouse (development build \S+|v\d+\.\d+\.\d+)/.test(footer.trim()), `sidebar version: ${footer}`);
    });

    await t.step(
      'a server error shows its request id, ready to copy',
      async () => {
        await page.route('**/api/sessions*', (route) =>
          route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'internal error', requestId: 'req-e2e-42' } }) }),
        );
        await page.goto('/sessions');
        await page.getByTestId('request-id').first().waitFor();
        const text = (await page.getByTestId('request-id').first().textContent()) ?? '';
        expect(text.includes('req-e2e-42'), `request id line: ${text}`);
        await page.getByRole('button', { name: 'Copy ID' }).first().waitFor();
        await shot(page, 'rough-request-id-desktop');
        await page.setViewportSize(viewports.phone);
        await shot(page, 'rough-request-id-phone');
        await page.setViewportSize(viewports.desktop);
        await page.unroute('**/api/sessions*');
      },
      { allowHttp: [['GET', /^\/api\/sessions$/, 500]] },
    );
  } finally {
    await context.close();
  }
}
