// Domains: the first one added becomes the default.
import { DOMAIN } from '../fixtures.mjs';
import { navTo, shot } from '../page.mjs';

export async function createDomain(t, page) {
  await t.step('create a domain', async () => {
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
}
