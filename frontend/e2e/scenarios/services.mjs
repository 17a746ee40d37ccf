// Services: the form and its rule preview, creation, conflicts while typing, the list's
// toggle and backend check, editing and deletion. The service is "Wiki" on wiki.<DOMAIN>.
import { DOMAIN } from '../fixtures.mjs';
import { navTo, shot, viewports } from '../page.mjs';
import { expect } from '../runner.mjs';

/** Creates Wiki pointing at the upstream on upstreamPort; returns its id ('' when it failed). */
export async function createService(t, page, upstreamPort) {
  let serviceId = '';

  await t.step('service form validates and previews the rule', async () => {
    await navTo(page, 'Services');
    await page.getByRole('link', { name: /Create your first service|New service/ }).first().click();
    await page.getByRole('heading', { name: 'New service', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Create service' }).click();
    await page.getByText('Give the service a name').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Wiki');
    await page.getByLabel('Hostname 1', { exact: true }).fill('wiki');
    await page.getByLabel('Target 1 host', { exact: true }).fill('127.0.0.1');
    await page.getByLabel('Target 1 port', { exact: true }).fill(String(upstreamPort));
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('Rule 1 value', { exact: true }).fill('/');
    const rule = await page.getByTestId('rule-preview').textContent();
    expect(rule === `Host(\`wiki.${DOMAIN}\`) && PathPrefix(\`/\`)`, `unexpected rule preview: ${rule}`);
    await shot(page, 'service-new-desktop');
  });

  await t.step('create the service and see its config preview', async () => {
    await page.getByRole('button', { name: 'Create service' }).click();
    await page.waitForURL(/\/services\/[^/]+\/config$/);
    serviceId = page.url().split('/').slice(-2)[0];
    await page.getByRole('heading', { name: 'Wiki', exact: true }).waitFor();
    const preview = page.getByTestId('config-preview');
    await preview.waitFor();
    const text = await preview.textContent();
    expect(text.includes(`wiki.${DOMAIN}`), 'config preview does not mention the hostname');
    expect(text.includes(`127.0.0.1:${upstreamPort}`), 'config preview does not mention the target');
    await shot(page, 'service-config-desktop');
  });

  return serviceId;
}

/** Conflicts while typing, the list's toggle and backend check, and an edit of Wiki. */
export async function manageService(t, page, serviceId) {
  await t.step('a taken hostname is flagged while typing', async () => {
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

  await t.step('services list shows the service and toggles it', async () => {
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

  await t.step('edit the service', async () => {
    await page.goto(`/services/${serviceId}`);
    await page.getByLabel('Name', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name', { exact: true }).fill('X-Env');
    await page.getByLabel('Header 1 value', { exact: true }).fill('lab');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Service saved').waitFor();
    await shot(page, 'service-edit-desktop');
  });
}

export async function deleteService(t, page) {
  await t.step('delete the service with confirmation', async () => {
    await page.setViewportSize(viewports.desktop);
    await page.goto('/services');
    await page.getByRole('button', { name: 'Delete Wiki' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Delete Wiki?' });
    await shot(page, 'service-delete-desktop', { fullPage: false });
    await dialog.getByRole('button', { name: 'Delete service' }).click();
    await page.getByText('No services yet').waitFor();
  });
}
