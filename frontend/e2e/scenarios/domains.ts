// Domains: the first one added becomes the default.
import { test } from '../support/chain';
import { DOMAIN } from '../support/names';
import { navTo, shot } from '../support/page';

export function createDomain() {
  test.describe('createDomain', { tag: '@base' }, () => {
    test('create a domain', async ({ page }) => {
      await navTo(page, 'Domains');
      await page.getByRole('heading', { name: 'Domains', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Add domain' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Domain', { exact: true }).fill(DOMAIN);
      await dialog.getByLabel('Display name', { exact: true }).fill('Lab');
      await shot(page, 'domain-form-desktop', { fullPage: false });
      await dialog.getByRole('button', { name: 'Add domain' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('cell', { name: new RegExp(DOMAIN) }).first().waitFor();
      await page.getByText('Default', { exact: true }).waitFor();
    });
  });
}
