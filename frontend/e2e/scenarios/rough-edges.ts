// The UI's rough edges on the chain's panel: phone-width layout, a revoked link that says so,
// and search and filters that survive a reload. The ones on a panel without Traefik's API are
// in not-connected.spec.ts.
import type { Locator, Page } from '@playwright/test';
import { eventually, expect, handed, test } from '../support/chain';
import { artifact, saveProtection, shot, viewports } from '../support/page';

const overflowX = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function box(field: Locator) {
  const b = await field.boundingBox();
  if (!b) throw new Error(`${field} is not visible`);
  return b;
}

/** Dashboard, services list and a target row at 390 px: nothing wider than the screen. */
export function phoneLayout() {
  test.describe('phoneLayout', () => {
    test('phone width: the dashboard, the services filter bar and a target row fit the screen', async ({ page }) => {
      const { serviceId } = handed;
      await page.setViewportSize(viewports.phone);
      await page.goto('/');
      await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      await page.getByRole('link', { name: 'Wiki' }).first().waitFor();
      expect((await overflowX(page)) <= 0, `dashboard is ${await overflowX(page)} px wider than the phone`).toBeTruthy();
      await shot(page, 'rough-dashboard-phone');

      await page.goto('/services');
      // On a phone the filters fold behind one button.
      const toggle = page.getByRole('button', { name: /^Filters/ });
      await toggle.click();
      expect((await toggle.getAttribute('aria-expanded')) === 'true', 'the Filters button did not open the filters').toBeTruthy();
      const filters = page.getByRole('group', { name: 'Filter by status' });
      await filters.waitFor();
      for (const b of await filters.getByRole('button').all()) {
        const box = await b.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= viewports.phone.width, `filter "${await b.textContent()}" is clipped: ${JSON.stringify(box)}`).toBeTruthy();
      }
      expect((await overflowX(page)) <= 0, `services page is ${await overflowX(page)} px wider than the phone`).toBeTruthy();
      await shot(page, 'rough-services-phone');

      await page.goto(`/services/${serviceId}`);
      const host = page.getByLabel('Target 1 host', { exact: true });
      await host.waitFor();
      const [scheme, hostBox, port] = [
        await box(page.getByLabel('Target 1 scheme', { exact: true })),
        await box(host),
        await box(page.getByLabel('Target 1 port', { exact: true })),
      ];
      expect(Math.abs(scheme.y - hostBox.y) < 4, `scheme and host are not on one line: ${scheme.y} vs ${hostBox.y}`).toBeTruthy();
      expect(port.y >= hostBox.y, `the port (${port.y}) sits above the host (${hostBox.y})`).toBeTruthy();
      expect(hostBox.width >= 200, `host field is only ${hostBox.width} px wide`).toBeTruthy();
      expect(scheme.width >= 80 && port.width >= 80, `scheme (${scheme.width} px) or port (${port.width} px) squeezed`).toBeTruthy();
      await page.getByTestId('target-row-0').screenshot({ path: artifact('rough-target-row-phone') });
      await shot(page, 'rough-target-phone');

      await page.setViewportSize(viewports.desktop);
      await page.goto('/');
      await page.getByRole('link', { name: 'Wiki' }).first().waitFor();
      await shot(page, 'rough-dashboard-desktop');
    });
  });
}

/** Search and filters are kept in the URL and survive a reload. */
export function urlState() {
  test.describe('urlState', () => {
    test('search and filters survive a reload (services list, access log)', async ({ page }) => {
      await page.setViewportSize(viewports.desktop);
      await page.goto('/services');
      await page.getByLabel('Search services', { exact: true }).fill('wik');
      await page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: 'Enabled' }).click();
      await page.waitForURL((u) => u.searchParams.get('q') === 'wik' && u.searchParams.get('status') === 'enabled');
      await page.reload();
      const search = page.getByLabel('Search services', { exact: true });
      await search.waitFor();
      expect((await search.inputValue()) === 'wik', `search after reload: ${await search.inputValue()}`).toBeTruthy();
      const pressed = await page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: 'Enabled' }).getAttribute('aria-pressed');
      expect(pressed === 'true', `Enabled filter after reload: aria-pressed=${pressed}`).toBeTruthy();
      await page.getByRole('link', { name: 'Wiki' }).first().waitFor();
      await shot(page, 'rough-services-filtered-reload-desktop');

      await page.goto('/access-log');
      await page.getByLabel('Decision', { exact: true }).selectOption('denied');
      await page.waitForURL((u) => u.searchParams.get('decision') === 'denied');
      await page.reload();
      await page.getByLabel('Decision', { exact: true }).waitFor();
      const decision = await page.getByLabel('Decision', { exact: true }).inputValue();
      expect(decision === 'denied', `decision after reload: ${decision}`).toBeTruthy();
    });
  });
}

/** A revoked link says "revoked", not when it would have expired. */
export function revokedLink() {
  test.describe('revokedLink', () => {
    test('a revoked shared link says revoked, with when', async ({ page }) => {
      const { serviceId } = handed;
      await page.setViewportSize(viewports.desktop);
      await page.goto(`/services/${serviceId}/security`);
      await page.getByRole('heading', { name: 'Shared links', exact: true }).waitFor();
      const off = page.getByRole('switch', { name: /Accept shared links/ });
      if (await off.isVisible()) {
        await off.click({ force: true });
        await page.getByRole('switch', { name: 'Shared links are accepted' }).waitFor();
        await saveProtection(page);
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
      expect(ok, `validity of the revoked link: ${await row.getByTestId('link-validity').textContent()}`).toBeTruthy();
      await shot(page, 'rough-revoked-link-desktop');
      await page.setViewportSize(viewports.phone);
      await shot(page, 'rough-revoked-link-phone');
      await page.setViewportSize(viewports.desktop);
    });
  });
}
