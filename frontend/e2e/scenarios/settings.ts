// Global settings and the single sign-on provider.
import { allowHttp, expect, test } from '../support/chain';
import { DOMAIN } from '../support/names';
import { startOidcProvider, type OidcProvider } from '../support/oidc-provider';
import { shot } from '../support/page';

export function changeSettings() {
  test.describe('changeSettings', () => {
    test('change settings and see them persist', async ({ page }) => {
      await page.goto('/settings');
      await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
      await page.getByLabel('Admin panel domain', { exact: true }).fill(`panel.${DOMAIN}`);
      await page.getByLabel('Expire after', { exact: true }).check({ force: true });
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved').waitFor();
      await page.reload();
      await page.getByLabel('Admin panel domain', { exact: true }).waitFor();
      const v = await page.getByLabel('Admin panel domain', { exact: true }).inputValue();
      expect(v === `panel.${DOMAIN}`, `admin domain not saved: ${v}`).toBeTruthy();
      expect(await page.getByLabel('Expire after', { exact: true }).isChecked(), 'default lifetime not saved').toBeTruthy();
    });
  });
}

export function configureSso() {
  test.describe('configureSso', () => {
    let provider: OidcProvider;
    test.beforeAll(async () => {
      provider = await startOidcProvider({ clientId: 'gatehouse', clientSecret: 'very-secret-value', user: { sub: 'u1' } });
    });
    test.afterAll(async () => {
      await provider.close();
    });

    test('single sign-on: an issuer whose discovery fails is refused on its field', async ({ page }) => {
      allowHttp(['PUT', /^\/api\/sso$/, 422]);
      await page.goto('/settings');
      await page.getByRole('switch', { name: 'Enable single sign-on' }).check({ force: true });
      await page.getByLabel('Issuer URL', { exact: true }).fill('https://id.example.test');
      await page.getByLabel('Client ID', { exact: true }).fill('gatehouse');
      await page.getByLabel(/^Client secret/).fill('very-secret-value');
      await page.getByRole('button', { name: 'Save single sign-on' }).click();
      await page.getByText(/discovery document could not be read/).waitFor();
      expect(await page.getByLabel('Issuer URL', { exact: true }).getAttribute('aria-invalid') === 'true', 'the issuer field is not marked invalid').toBeTruthy();
      await shot(page, 'settings-sso-unreachable-desktop');
    });
    test('configure single sign-on with a write-only secret', async ({ page }) => {
      await page.getByLabel('Issuer URL', { exact: true }).fill(provider.issuer);
      await page.getByRole('button', { name: 'Save single sign-on' }).click();
      await page.getByText('Single sign-on saved').waitFor();
      await page.reload();
      await page.getByText('set', { exact: true }).first().waitFor();
      const secret = await page.getByLabel(/^Client secret/).inputValue();
      expect(secret === '', 'the client secret was shown again').toBeTruthy();
      await shot(page, 'settings-sso-desktop');
    });
  });
}
