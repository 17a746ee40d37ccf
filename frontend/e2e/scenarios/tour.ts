// Screenshot tour: every page at desktop and phone width with no horizontal overflow, then
// the dark theme and the phone navigation.
import { expect, handed, test } from '../support/chain';
import { navTo, shot, viewports } from '../support/page';

/** Every page as [screenshot name, URL, heading]; the service's pages are Wiki's. */
function tour(serviceId: string): [string, string, string][] {
  return [
    ['dashboard', '/', 'Dashboard'],
    ['services', '/services', 'Services'],
    ['service-new', '/services/new', 'New service'],
    ['service-edit', `/services/${serviceId}`, 'Wiki'],
    ['service-config', `/services/${serviceId}/config`, 'Wiki'],
    ['service-security', `/services/${serviceId}/security`, 'Wiki'],
    ['service-access', `/services/${serviceId}/access`, 'Wiki'],
    ['domains', '/domains', 'Domains'],
    ['certificates', '/certificates', 'Certificates'],
    ['credential-sets', '/credential-sets', 'Credential sets'],
    ['sessions', '/sessions', 'Sessions'],
    ['access-rules', '/access-rules', 'Global access rules'],
    ['machine-tokens', '/machine-tokens', 'Machine tokens'],
    ['access-log', '/access-log', 'Access log'],
    ['runtime', '/runtime', 'Runtime'],
    ['metrics', '/traefik-metrics', 'Metrics'],
    ['conflicts', '/conflicts', 'Conflicts'],
    ['settings', '/settings', 'Settings'],
    ['account', '/account', 'Account'],
  ];
}

export function screenshotTour() {
  test.describe('screenshotTour', () => {
    for (const [vpName, vp] of Object.entries(viewports)) {
      test(`screenshots at ${vpName} width`, async ({ page }) => {
        await page.setViewportSize(vp);
        for (const [name, url, heading] of tour(handed.serviceId)) {
          await page.goto(url);
          await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
          await shot(page, `${name}-${vpName}`);
          const overflow = await page.evaluate(() => {
            const excess = document.documentElement.scrollWidth - window.innerWidth;
            if (excess <= 1) return null;
            // Name the outermost elements that stick out, to make the failure actionable.
            const culprits = [...document.querySelectorAll('body *')]
              .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
              .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= window.innerWidth + 1)
              .slice(0, 3)
              .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
            return { excess, culprits };
          });
          expect(!overflow, `${name} overflows horizontally at ${vpName} width: ${JSON.stringify(overflow)}`).toBeTruthy();
        }
      });
    }

    test('dark theme and phone navigation', async ({ page }) => {
      const { serviceId } = handed;
      await page.setViewportSize(viewports.desktop);
      await page.goto('/services');
      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      const theme = await page.evaluate(() => document.documentElement.dataset.theme);
      expect(theme === 'dark', `theme is ${theme}`).toBeTruthy();
      await shot(page, 'services-dark-desktop');
      await page.goto(`/services/${serviceId}`);
      await shot(page, 'service-edit-dark-desktop');
      await page.setViewportSize(viewports.phone);
      await page.goto('/');
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await navTo(page, 'Sessions');
      await page.getByRole('heading', { name: 'Sessions', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await shot(page, 'nav-open-dark-phone');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Switch to light theme' }).click();
    });
  });
}
