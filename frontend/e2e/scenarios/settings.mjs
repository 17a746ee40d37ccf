// Global settings and the single sign-on provider.
import { DOMAIN } from '../fixtures.mjs';
import { shot } from '../page.mjs';
import { expect } from '../runner.mjs';

export async function changeSettings(t, page) {
  await t.step('change settings and see them persist', async () => {
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    await page.getByLabel('Admin panel domain', { exact: true }).fill(`panel.${DOMAIN}`);
    await page.getByLabel('Expire after', { exact: true }).check({ force: true });
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    await page.reload();
    await page.getByLabel('Admin panel domain', { exact: true }).waitFor();
    const v = await page.getByLabel('Admin panel domain', { exact: true }).inputValue();
    expect(v === `panel.${DOMAIN}`, `admin domain not saved: ${v}`);
    expect(await page.getByLabel('Expire after', { exact: true }).isChecked(), 'default lifetime not saved');
  });
}

export async function configureSso(t, page) {
  await t.step('configure single sign-on with a write-only secret', async () => {
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Enable single sign-on' }).check({ force: true });
    await page.getByLabel('Issuer URL', { exact: true }).fill('https://id.example.test');
    await page.getByLabel('Client ID', { exact: true }).fill('gatehouse');
    await page.getByLabel(/^Client secret/).fill('very-secret-value');
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await page.getByText('Single sign-on saved').waitFor();
    await page.reload();
    await page.getByText('set', { exact: true }).first().waitFor();
    const secret = await page.getByLabel(/^Client secret/).inputValue();
    expect(secret === '', 'the client secret was shown again');
    await shot(page, 'settings-sso-desktop');
  });
}
