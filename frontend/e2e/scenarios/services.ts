// Services: the form and its rule preview, creation, conflicts while typing, the list's
// toggle and backend check, editing and deletion. The service is "Wiki" on wiki.<DOMAIN>.
import { expect, handed, test } from '../support/chain';
import { DOMAIN } from '../support/names';
import { navTo, serviceTab, shot, viewports } from '../support/page';

/** Creates Wiki pointing at the chain's upstream and hands its id on. */
export function createService() {
  test.describe('createService', { tag: '@base' }, () => {
    test('service form validates and previews the rule', async ({ page, stack }) => {
      const { upstreamPort } = stack;
      await navTo(page, 'Services');
      await page.getByRole('link', { name: /Create your first service|New service/ }).first().click();
      await page.getByRole('heading', { name: 'New service', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Create service' }).click();
      await page.getByText('Give the service a name').waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Wiki');
      await page.getByLabel('Hostname 1', { exact: true }).fill('wiki');
      // A pasted URL fills the scheme, host and port.
      await page.getByLabel('Target 1 host', { exact: true }).fill(`http://127.0.0.1:${upstreamPort}`);
      expect((await page.getByLabel('Target 1 host', { exact: true }).inputValue()) === '127.0.0.1', 'the pasted URL did not fill the host').toBeTruthy();
      expect((await page.getByLabel('Target 1 port', { exact: true }).inputValue()) === String(upstreamPort), 'the pasted URL did not fill the port').toBeTruthy();
      await shot(page, 'service-new-details-desktop');
      await serviceTab(page, 'Advanced');
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.getByLabel('Rule 1 value', { exact: true }).fill('/');
      const rule = await page.getByTestId('rule-preview').textContent();
      expect(rule === `Host(\`wiki.${DOMAIN}\`) && PathPrefix(\`/\`)`, `unexpected rule preview: ${rule}`).toBeTruthy();
      await shot(page, 'service-new-desktop');
    });

    test('create the service, see what to do next and its config preview', async ({ page, stack }) => {
      const { upstreamPort } = stack;
      await page.getByRole('button', { name: 'Create service' }).click();
      await page.waitForURL(/\/services\/[^/?]+\?created=1$/);
      handed.serviceId = new URL(page.url()).pathname.split('/').slice(-1)[0] ?? '';
      const next = page.getByTestId('next-steps');
      await next.getByRole('link', { name: 'Protect it' }).waitFor();
      await shot(page, 'service-created-next-steps-desktop');
      await next.getByRole('link', { name: 'See the configuration Traefik gets' }).click();
      await page.waitForURL(/\/services\/[^/]+\/config$/);
      await page.getByRole('heading', { name: 'Wiki', exact: true }).waitFor();
      const preview = page.getByTestId('config-preview');
      await preview.waitFor();
      const text = (await preview.textContent()) ?? '';
      expect(text.includes(`wiki.${DOMAIN}`), 'config preview does not mention the hostname').toBeTruthy();
      expect(text.includes(`127.0.0.1:${upstreamPort}`), 'config preview does not mention the target').toBeTruthy();
      await shot(page, 'service-config-desktop');
    });
  });
}

/** Conflicts while typing, the list's toggle and backend check, and an edit of Wiki. */
export function manageService() {
  test.describe('manageService', () => {
    test('a taken hostname is flagged while typing', async ({ page }) => {
      await page.goto('/services/new');
      await page.getByRole('option', { name: /example\.test/ }).first().waitFor({ state: 'attached' });
      await page.getByLabel('Hostname 1', { exact: true }).fill('wiki');
      await page.getByText(/already belongs to Wiki/).waitFor();
      await shot(page, 'service-conflict-desktop');
      // Leaving a dirty form in the app asks first; cancelling stays, discarding leaves.
      await navTo(page, 'Services');
      const guard = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
      await guard.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('heading', { name: 'New service', exact: true }).waitFor();
      await navTo(page, 'Services');
      await guard.getByRole('button', { name: 'Discard changes' }).click();
      await page.getByRole('heading', { name: 'Services', exact: true }).waitFor();
    });

    test('services list shows the service and toggles it', async ({ page }) => {
      await page.goto('/services');
      await page.getByRole('link', { name: 'Wiki', exact: true }).first().waitFor();
      await page.getByText(`wiki.${DOMAIN}`).first().waitFor();
      await page.getByRole('button', { name: 'Check backends' }).click();
      await page.getByText('1/1 reachable').first().waitFor();
      await shot(page, 'services-desktop');
      const toggle = page.getByRole('switch', { name: 'Disable Wiki' }).first();
      await toggle.click({ force: true });
      await page.getByText('Wiki disabled').waitFor();
      await page.getByRole('switch', { name: 'Enable Wiki' }).first().click({ force: true });
      await page.getByText('Wiki enabled').waitFor();
    });

    test('edit the service', async ({ page }) => {
      const { serviceId } = handed;
      await page.goto(`/services/${serviceId}`);
      await page.getByLabel('Name', { exact: true }).waitFor();
      await serviceTab(page, 'Advanced');
      await page.getByRole('button', { name: 'Add header' }).click();
      await page.getByLabel('Header 1 name', { exact: true }).fill('X-Env');
      await page.getByLabel('Header 1 value', { exact: true }).fill('lab');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Service saved').waitFor();
      await shot(page, 'service-edit-desktop');
    });
  });
}

export function deleteService() {
  test.describe('deleteService', () => {
    test('delete the service with confirmation', async ({ page }) => {
      await page.setViewportSize(viewports.desktop);
      await page.goto('/services');
      await page.getByRole('button', { name: 'Delete Wiki' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Delete Wiki?' });
      await shot(page, 'service-delete-desktop', { fullPage: false });
      await dialog.getByRole('button', { name: 'Delete service' }).click();
      await page.getByText('No services yet').waitFor();
    });
  });
}
