// The live views against a real Traefik: traffic through it, the runtime, conflicts and
// metrics pages. Run only when a Traefik binary is at hand.
import { eventually, expect, handed, needTraefik, test } from '../support/chain';
import { DOMAIN } from '../support/names';
import { serviceTab, shot, viewports } from '../support/page';

/** Sends traffic to Wiki through Traefik and sees its router in the runtime view. */
export function traffic() {
  test.describe('traffic', () => {
    test('traffic flows through the real Traefik', async ({ page, stack }) => {
      const traefik = needTraefik(stack);
      const { serviceId } = handed;
      // Traefik polls the panel every second; wait until the router is live.
      const ok = await eventually(() => traefik.get(`wiki.${DOMAIN}`, 1), { intervalMs: 500 });
      expect(ok === 1, 'Traefik never routed wiki through the panel').toBeTruthy();
      const more = await traefik.get(`wiki.${DOMAIN}`, 40);
      expect(more === 40, `only ${more}/40 requests succeeded`).toBeTruthy();
      // The panel caches Traefik's answers briefly; wait until its view has the router.
      const seen = await eventually(async () => {
        const body = await (await page.request.get('/api/proxy/runtime')).json();
        return (body.routers ?? []).some((r: { serviceId?: string }) => r.serviceId === serviceId);
      });
      expect(seen, "the panel's runtime view never showed the service's router").toBeTruthy();
      await page.goto('/runtime');
      await page.getByRole('link', { name: 'Wiki' }).first().waitFor();
      await shot(page, 'runtime-live-desktop');
      await page.setViewportSize(viewports.phone);
      await shot(page, 'runtime-live-phone');
      await page.setViewportSize(viewports.desktop);
    });
  });
}

/** Certificates need Traefik 3.7; a middleware Traefik does not know is reported as a conflict. */
export function liveViews() {
  test.describe('liveViews', () => {
    test('live views: certificates need Traefik 3.7, a missing middleware is a conflict', async ({ page, stack }) => {
      needTraefik(stack);
      const { serviceId } = handed;
      await page.setViewportSize(viewports.desktop);
      await page.goto('/certificates');
      await page.getByText('Requires Traefik 3.7').waitFor();
      await page.goto(`/services/${serviceId}`);
      await serviceTab(page, 'Advanced');
      const mw = page.getByLabel('Middlewares', { exact: true });
      await mw.fill('missing-mw@file');
      await mw.press('Enter');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Service saved').waitFor();
      const found = await eventually(async () => {
        const body = await (await page.request.get('/api/proxy/conflicts')).json();
        return (body.items ?? []).some((c: { kind: string }) => c.kind === 'missing_middleware');
      });
      expect(found, 'no missing_middleware conflict reported').toBeTruthy();
      await page.goto('/conflicts');
      await page.getByText('Missing middleware').first().waitFor();
      await shot(page, 'conflicts-live-desktop');
      await page.goto('/traefik-metrics');
      await page.getByRole('link', { name: 'Wiki' }).first().waitFor();
      await shot(page, 'metrics-live-desktop');
    });
  });
}
