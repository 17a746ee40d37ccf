// Status backed by evidence: the dashboard's line about Traefik's polls of the
// configuration, and each service's badge from Traefik's runtime (live, error with
// Traefik's own message).
import { eventually, expect, handed, needTraefik, test } from '../support/chain';
import { shot, viewports } from '../support/page';

/** The dashboard says when Traefik last fetched the configuration, and the service is Live. */
export function pollStatus() {
  test.describe('pollStatus', () => {
    test("the dashboard shows Traefik's last poll and a Live badge from evidence", async ({ page, stack }) => {
      const { traefik } = stack;
      await page.setViewportSize(viewports.desktop);
      await page.goto('/');
      if (!traefik) {
        await page.getByText('Traefik has never polled the configuration').waitFor();
        await page.getByTestId('setup-provider-snippet').waitFor();
        await shot(page, 'dashboard-never-polled-desktop');
        return;
      }
      const line = page.getByTestId('poll-line');
      await line.waitFor();
      const current = await eventually(async () => /runs the current version/.test((await line.textContent()) ?? ''), { intervalMs: 500 });
      expect(current, `poll line: ${await line.textContent()}`).toBeTruthy();
      expect(/Traefik fetched the configuration (just now|\d+ seconds ago) from 127\.0\.0\.1/.test((await line.textContent()) ?? ''), `poll line: ${await line.textContent()}`).toBeTruthy();
      const row = page.getByRole('row', { name: /Wiki/ });
      await row.getByText('Live', { exact: true }).waitFor();
      await shot(page, 'dashboard-poll-live-desktop');
      await page.setViewportSize(viewports.phone);
      await shot(page, 'dashboard-poll-live-phone');
      await page.setViewportSize(viewports.desktop);
    });
  });
}

/** A middleware Traefik does not know: the service's badge is Error and its page shows Traefik's message. */
export function errorBadge() {
  test.describe('errorBadge', () => {
    test("a router Traefik flags shows Error with Traefik's message on the service page", async ({ page, stack }) => {
      needTraefik(stack);
      const { serviceId } = handed;
      await page.setViewportSize(viewports.desktop);
      await page.goto(`/services/${serviceId}`);
      const errors = page.getByTestId('traefik-errors');
      await errors.waitFor({ timeout: 20000 });
      const text = (await errors.textContent()) ?? '';
      expect(/missing-mw@file/.test(text) && /does not exist/.test(text), `errors shown: ${text}`).toBeTruthy();
      await page.getByText('Error', { exact: true }).first().waitFor();
      await shot(page, 'service-traefik-error-desktop');
    });
  });
}
