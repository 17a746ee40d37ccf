// Global settings and the single sign-on provider.
import { DOMAIN } from '../fixtures.mjs';
import { startOidcProvider } from '../oidc-provider.mjs';
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
  const provider = await startOidcProvider({ clientId: 'gatehouse', clientSecret: 'very-secret-value', user: { sub: 'u1' } });
  try {
    await configureSsoSteps(t, page, provider);
  } finally {
    await provider.close();
  }
}

async function configureSsoSteps(t, page, provider) {
  await t.step('single sign-on: an issuer whose discovery fails is refused on its field', async () => {
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Enable single sign-on' }).check({ force: true });
    await page.getByLabel('Issuer URL', { exact: true }).fill('https://id.example.test');
    await page.getByLabel('Client ID', { exact: true }).fill('gatehouse');
    await page.getByLabel(/^Client secret/).fill('very-secret-value');
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await page.getByText(/discovery document could not be read/).waitFor();
    expect(await page.getByLabel('Issuer URL', { exact: true }).getAttribute('aria-invalid') === 'true', 'the issuer field is not marked invalid');
    await shot(page, 'settings-sso-unreachable-desktop');
  }, { allowHttp: [['PUT', /^\/api\/sso$/, 422]] });
  await t.step('configure single sign-on with a write-only secret', async () => {
    await page.getByLabel('Issuer URL', { exact: true }).fill(provider.issuer);
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await page.getByText('Single sign-on saved').waitFor();
    await page.reload();
    await page.getByText('set', { exact: true }).first().waitFor();
    const secret = await page.getByLabel(/^Client secret/).inputValue();
    expect(secret === '', 'the client secret was shown again');
    await shot(page, 'settings-sso-desktop');
  });
}
