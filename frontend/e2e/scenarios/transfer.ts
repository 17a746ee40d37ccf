// Export & import: the export downloads as a file; that file imported back in merge mode
// changes nothing; the same file without its services, in replace mode, plans to delete
// them (reviewed, not applied: the scenarios after this one still need them). A Traefik
// file is uploaded, reviewed with what it leaves out, and applied; a Nginx Proxy Manager
// database is uploaded and reviewed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../support/chain';
import { navTo, shot, viewports } from '../support/page';

export function transfer() {
  test.describe('transfer', () => {
    // The export the first test downloads; the tests after it import it back, changed or not.
    let exported: { format: string; version: number; services: { name: string }[] } = { format: '', version: 0, services: [] };
    test('export the configuration as a file', async ({ page }) => {
      await page.setViewportSize(viewports.desktop);
      await page.goto('/');
      await navTo(page, 'Export & import');
      await page.getByRole('heading', { name: 'Export & import', exact: true }).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
      expect(/^gatehouse-export-\d{8}-\d{6}\.json$/.test(download.suggestedFilename()), `file name ${download.suggestedFilename()}`).toBeTruthy();
      const path = await download.path();
      exported = JSON.parse(readFileSync(path, 'utf8'));
      expect(exported.format === 'gatehouse-export' && exported.version === 1, 'not an export').toBeTruthy();
      expect(exported.services.length > 0, 'the export has no services').toBeTruthy();
      expect(!('sealed' in exported), 'an export without secrets carries a sealed part').toBeTruthy();
      await page.getByText(/^Saved as gatehouse-export-/).waitFor();
    });

    test('importing the export back in merge mode changes nothing', async ({ page }) => {
      const file = { name: 'export.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) };
      await page.getByLabel('File', { exact: true }).setInputFiles(file);
      await page.getByText('Merge: create and update, keep everything else').click();
      await page.getByRole('button', { name: 'Review' }).click();
      const plan = page.getByRole('table', { name: 'Import plan' });
      await plan.waitFor();
      const status = (await page.getByRole('status').filter({ hasText: 'Plan (gatehouse, merge)' }).textContent()) ?? '';
      expect(/0 to create, 0 to update, \d+ unchanged, 0 to delete, 0 refused/.test(status), `plan: ${status}`).toBeTruthy();
      expect(await plan.getByText('Create', { exact: true }).count() === 0, 'a merge of the own export creates something').toBeTruthy();
      await page.getByRole('button', { name: 'Nothing to apply' }).waitFor();
      await shot(page, 'transfer-merge-plan-desktop');
    });

    test('replace mode plans to delete what the file lacks', async ({ page }) => {
      const names = exported.services.map((s) => s.name);
      const file = { name: 'no-services.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ ...exported, services: [], machineTokens: [] })) };
      await page.getByLabel('File', { exact: true }).setInputFiles(file);
      await page.getByText('Replace: also delete what the file does not have').click();
      await page.getByRole('button', { name: 'Review' }).click();
      const plan = page.getByRole('table', { name: 'Import plan' });
      await plan.waitFor();
      for (const name of names) {
        await plan.getByRole('row').filter({ hasText: name }).getByText('Delete', { exact: true }).first().waitFor();
      }
      await page.getByRole('button', { name: /^Apply \d+ changes?$/ }).waitFor();
      await shot(page, 'transfer-replace-plan-desktop');
    });

    test('a Traefik file: the plan lists what is left out and why; applied, its router is a service', async ({ page }) => {
      const yaml = [
        'http:',
        '  routers:',
        '    ui-imported:',
        '      rule: Host(`ui-imported.example.test`) && PathPrefix(`/app`)',
        '      service: ui-imported',
        '    ui-regexp:',
        '      rule: HostRegexp(`^.+\\.example\\.test$`)',
        '      service: ui-imported',
        '  services:',
        '    ui-imported:',
        '      loadBalancer:',
        '        servers:',
        '          - url: http://127.0.0.1:9',
        '',
      ].join('\n');
      await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'dynamic.yml', mimeType: 'application/yaml', buffer: Buffer.from(yaml) });
      await page.getByText('Merge: create and update, keep everything else').click();
      await page.getByRole('button', { name: 'Review' }).click();
      await page.getByRole('status').filter({ hasText: 'Plan (traefik, merge)' }).waitFor();
      const plan = page.getByRole('table', { name: 'Import plan' });
      await plan.getByRole('row').filter({ hasText: 'ui-imported' }).getByText('Create', { exact: true }).waitFor();
      const left = page.getByRole('table', { name: 'Not imported' });
      await left.getByRole('row').filter({ hasText: 'ui-regexp' }).filter({ hasText: 'HostRegexp' }).waitFor();
      await shot(page, 'transfer-traefik-plan-desktop');
      await page.getByRole('button', { name: 'Apply 1 change' }).click();
      await page.getByText(/^1 created, 0 updated, 0 deleted/).waitFor();
      const list = await page.evaluate(async () => (await (await fetch('/api/services')).json()).items);
      const svc = list.find((s: { name: string }) => s.name === 'ui-imported');
      expect(svc && svc.fqdns.includes('ui-imported.example.test'), 'the imported service is not listed').toBeTruthy();
      expect(svc.rules.some((r: { type: string; value: string }) => r.type === 'pathPrefix' && r.value === '/app'), `rules: ${JSON.stringify(svc.rules)}`).toBeTruthy();
      // The scenarios after this one count the services they made.
      const del = await page.evaluate(async (id) => (await fetch(`/api/services/${id}`, { method: 'DELETE' })).status, svc.id);
      expect(del === 204, `delete the imported service: ${del}`).toBeTruthy();
    });

    test('a Nginx Proxy Manager database: its hosts planned, what NPM has and Gatehouse lacks listed', async ({ page }) => {
      const here = path.dirname(fileURLToPath(import.meta.url));
      const db = readFileSync(path.join(here, '../../../backend/internal/transfer/npm/testdata/npm-v2.12.sqlite'));
      await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'database.sqlite', mimeType: 'application/octet-stream', buffer: db });
      await page.getByRole('button', { name: 'Review' }).click();
      await page.getByRole('status').filter({ hasText: 'Plan (npm, merge)' }).waitFor();
      const plan = page.getByRole('table', { name: 'Import plan' });
      await plan.getByRole('row').filter({ hasText: 'Family' }).getByText('Create', { exact: true }).first().waitFor();
      const left = page.getByRole('table', { name: 'Not imported' });
      await left.getByRole('row').filter({ hasText: /stream/i }).first().waitFor();
      await shot(page, 'transfer-npm-plan-desktop');
    });
  });
}
