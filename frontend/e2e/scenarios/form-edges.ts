// Form behaviour that only shows in a real browser: a click that blurs an invalid field
// still lands, a refusal the form shows on its fields raises no toast and the next
// successful save leaves none behind, and a domain that services use cannot be deleted,
// the dialog naming them and how many more.
import type { Page } from '@playwright/test';
import { allowHttp, expect, test } from '../support/chain';
import { DOMAIN } from '../support/names';
import { serviceTab, shot, viewports } from '../support/page';

async function bothWidths(page: Page, name: string, opts?: { fullPage?: boolean }) {
  await shot(page, `${name}-desktop`, opts);
  await page.setViewportSize(viewports.phone);
  await shot(page, `${name}-phone`, opts);
  await page.setViewportSize(viewports.desktop);
}

/** Same-origin JSON call from the signed-in page. */
function api(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ([m, p, b]) => {
      const res = await fetch(p, { method: m, headers: { 'Content-Type': 'application/json' }, body: b ? JSON.stringify(b) : undefined });
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    },
    [method, path, body] as const,
  );
}

const errorToasts = (page: Page) => page.locator('.toast-error').count();

export function roughEdges() {
  test.describe('roughEdges', () => {
    test('a click that blurs an invalid port still lands on "Add rule"', async ({ page }) => {
      await page.setViewportSize(viewports.desktop);
      await page.goto('/services/new');
      await page.getByRole('option', { name: new RegExp(DOMAIN) }).first().waitFor({ state: 'attached' });
      await page.getByLabel('Name', { exact: true }).fill('Rough');
      await page.getByLabel('Hostname 1', { exact: true }).fill('rough');
      await page.getByLabel('Target 1 host', { exact: true }).fill('127.0.0.1');
      await page.getByLabel('Target 1 port', { exact: true }).fill('0');
      await serviceTab(page, 'Advanced');
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.getByLabel('Rule 1 value', { exact: true }).waitFor();
      expect((await page.getByLabel('Target 1 port', { exact: true }).getAttribute('aria-invalid')) === null, 'the port was validated on blur').toBeTruthy();
      await bothWidths(page, 'rough-add-rule-after-blur');
    });

    test('the client refuses what the server refuses, and the preview shows no invalid rule', async ({ page }) => {
      await serviceTab(page, 'Details');
      await page.getByLabel('Target 1 port', { exact: true }).fill('8080');
      await serviceTab(page, 'Advanced');
      await page.getByLabel('Rule 1 type', { exact: true }).selectOption('clientIP');
      await page.getByLabel('Rule 1 value', { exact: true }).fill('10.0.0.300/8');
      const preview = (await page.getByTestId('rule-preview').textContent()) ?? '';
      expect(!preview.includes('ClientIP'), `the preview shows invalid input as a rule: ${preview}`).toBeTruthy();
      await page.getByRole('button', { name: 'Create service' }).click();
      await page.getByText('Enter an IP address or a CIDR range such as 10.0.0.0/8').waitFor();
      await bothWidths(page, 'rough-client-ip-refused');
      await page.getByLabel('Rule 1 value', { exact: true }).fill('10.0.0.0/8');
    });

    test('a refusal shown on its field raises no toast; the next save clears errors', async ({ page }) => {
      allowHttp(['POST', /^\/api\/services$/, 409]);
      // Wiki owns wiki.<domain>: the server refuses the hostname on its field.
      await serviceTab(page, 'Details');
      const host = page.getByLabel('Hostname 1', { exact: true });
      await host.fill('wiki');
      const refused = page.waitForResponse((r) => r.url().endsWith('/api/services') && r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Create service' }).click();
      expect((await refused).status() === 409, 'the server accepted a taken hostname').toBeTruthy();
      await page.waitForFunction(() => document.querySelector('[aria-invalid="true"]') !== null);
      expect((await host.getAttribute('aria-invalid')) === 'true', 'the hostname is not marked invalid').toBeTruthy();
      await page.waitForTimeout(300);
      expect((await errorToasts(page)) === 0, 'a toast repeats the field error').toBeTruthy();
      await bothWidths(page, 'rough-field-error-no-toast');
      await host.fill('rough');
      await page.getByRole('button', { name: 'Create service' }).click();
      await page.waitForURL(/\/services\/[^/?]+\?created=1$/);
      expect((await errorToasts(page)) === 0, 'an error toast stayed after the save').toBeTruthy();
    });

    test('a domain that services use cannot be deleted; the dialog names them and how many more', async ({ page }) => {
      const domains = await api(page, 'GET', '/api/domains');
      const domainId = domains.body.items.find((d: { domain: string }) => d.domain === DOMAIN).id;
      const extra: string[] = [];
      for (const n of ['r1', 'r2', 'r3', 'r4', 'r5']) {
        const r = await api(page, 'POST', '/api/services', {
          name: `Rough ${n}`, domainId, hostnames: [{ type: 'subdomain', value: `rough-${n}` }],
          targets: [{ scheme: 'http', host: '127.0.0.1', port: 8080 }],
        });
        expect(r.status === 201, `create service ${n}: ${r.status} ${JSON.stringify(r.body)}`).toBeTruthy();
        extra.push(r.body.id);
      }
      try {
        const all = (await api(page, 'GET', '/api/services')).body.items.filter((s: { domainId: string }) => s.domainId === domainId);
        await page.goto('/domains');
        await page.getByRole('button', { name: `Delete ${DOMAIN}` }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByText(`${all.length} services use this domain`).waitFor();
        await dialog.getByText(`and ${all.length - 5} more.`, { exact: false }).waitFor();
        expect(await dialog.getByRole('button', { name: 'Delete domain' }).isDisabled(), 'the delete button is active').toBeTruthy();
        await bothWidths(page, 'rough-domain-delete-blocked', { fullPage: false });
        await dialog.getByRole('button', { name: 'Cancel' }).click();
      } finally {
        const rough = (await api(page, 'GET', '/api/services')).body.items.filter((s: { name: string }) => s.name.startsWith('Rough'));
        for (const s of rough) await api(page, 'DELETE', `/api/services/${s.id}`);
      }
    });
  });
}
