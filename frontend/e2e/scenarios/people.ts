// People and groups: adding a second admin, a viewer and a person without panel access, a
// group with members, the panel refusing to lose its last admin, a person without a panel
// role refused the panel's sign-in in plain words, what a viewer sees (no write buttons on any
// main page, forms read-only) and what the server answers them (403), and API tokens used
// from outside the browser the way curl would.
import type { Page } from '@playwright/test';
import { allowHttp, expect, test } from '../support/chain';
import { PASSWORD, USER } from '../support/names';
import { navTo, openPage, shot, viewports } from '../support/page';

const SECOND = 'second-admin';
const VIEWER = 'viewer';

const NOBODY = 'family-member';

async function addPerson(page: Page, username: string, role: string) {
  await page.getByRole('button', { name: 'Add person' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add person' });
  await dialog.getByLabel('Username', { exact: true }).fill(username);
  await dialog.getByLabel('Panel role', { exact: true }).selectOption(role);
  await dialog.getByLabel(/^Password/).fill(PASSWORD);
  await dialog.getByLabel(/^Confirm password/).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Add person' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('row', { name: new RegExp(username) }).first().waitFor();
}

/** Changes a person's panel role through the edit dialog; the dialog stays open when refused. */
async function setPanelRole(page: Page, username: string, role: string) {
  await page.getByRole('button', { name: `Edit ${username}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${username}` });
  await dialog.getByLabel('Panel role', { exact: true }).selectOption(role);
  await dialog.getByRole('button', { name: 'Save' }).click();
  return dialog;
}

/** Creates an API token on the API tokens page and returns its value. */
async function createToken(page: Page, name: string, role: string) {
  await page.getByRole('button', { name: 'New API token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API token' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Role', { exact: true }).selectOption(role);
  await dialog.getByRole('button', { name: 'Create token' }).click();
  const ready = page.getByRole('dialog', { name: 'API token ready' });
  const value = await ready.getByLabel('API token value').inputValue();
  expect(value.startsWith('gha_'), `token value ${value.slice(0, 6)}… lacks the gha_ prefix`).toBeTruthy();
  await ready.getByRole('button', { name: 'I have copied it' }).click();
  await ready.waitFor({ state: 'detached' });
  return value;
}

// What a viewer must not be offered: any button or link that would change something.
const WRITE_NAME = /^(save|delete|create|add|new|insert|remove|revoke|discard)\b/i;

/** Fails when the page offers a write control or shows an error (a danger alert or an error toast). */
async function expectReadOnlyPage(v: Page, where: string) {
  await v.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
  const main = v.getByRole('main');
  const writes = [
    ...(await main.getByRole('button', { name: WRITE_NAME }).allTextContents()),
    ...(await main.getByRole('link', { name: WRITE_NAME }).allTextContents()),
  ];
  expect(writes.length === 0, `${where}: a viewer is offered ${JSON.stringify(writes)}`).toBeTruthy();
  const errors = await v.locator('.alert-danger, .toast-error').allTextContents();
  expect(errors.length === 0, `${where}: errors shown ${JSON.stringify(errors)}`).toBeTruthy();
}

/** Calls the API from Node, as a script with a token would (no cookie, no browser). */
async function withToken(base: string, value: string, method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { Authorization: `Bearer ${value}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.status;
}

export function people() {
  test.describe('people', () => {
    test('people: add a second admin, a viewer and a person without panel access; groups with members', async ({ page }) => {
      await page.goto('/');
      await navTo(page, 'People');
      await page.getByRole('heading', { name: 'People', exact: true }).waitFor();
      await addPerson(page, SECOND, 'admin');
      await addPerson(page, VIEWER, 'viewer');
      await addPerson(page, NOBODY, 'none');
      expect((await page.getByRole('table').getByRole('row').count()) === 5, 'expected a header and 4 people').toBeTruthy();
      await page.getByRole('row', { name: new RegExp(NOBODY) }).getByText('No panel access').waitFor();
      await page.getByLabel('Search people').fill('family');
      await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);
      await page.getByLabel('Search people').fill('');
      await expect(page.getByRole('table').getByRole('row')).toHaveCount(5);
      await shot(page, 'people-desktop');

      await navTo(page, 'Groups');
      await page.getByRole('heading', { name: 'Groups', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Add group' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add group' });
      await dialog.getByLabel('Name', { exact: true }).fill('family');
      await dialog.getByLabel(/^Description/).fill('Everyone at home');
      await dialog.getByRole('button', { name: 'Add group' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Members of family' }).click();
      const members = page.getByRole('dialog', { name: 'Members of family' });
      await members.getByLabel('Person to add').selectOption({ label: NOBODY });
      await members.getByRole('button', { name: 'Add', exact: true }).click();
      await members.getByText(NOBODY, { exact: true }).waitFor();
      await shot(page, 'groups-members-desktop');
      await page.keyboard.press('Escape');
      await page.getByRole('row', { name: /family/ }).getByText(NOBODY, { exact: true }).waitFor();
      await navTo(page, 'People');
      await page.getByRole('row', { name: new RegExp(NOBODY) }).getByText('family', { exact: true }).waitFor();
    });

    test('a person without a panel role is refused the panel in plain words', async ({ browser, stack }) => {
      allowHttp(['POST', /^\/api\/admin\/login$/, 403]);
      const { context, page: p } = await openPage(browser, { baseURL: stack.base, viewport: viewports.desktop });
      await p.goto('/login');
      await p.getByLabel('Username', { exact: true }).fill(NOBODY);
      await p.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.getByText(/no access to the panel/).first().waitFor();
      await shot(p, 'sign-in-no-panel-role-desktop');
      await context.close();
    });

    test('the last active admin cannot step down: the server says why', async ({ page }) => {
      allowHttp(['PATCH', /^\/api\/people\/[^/]+$/, 409]);
      await navTo(page, 'People');
      await (await setPanelRole(page, SECOND, 'viewer')).waitFor({ state: 'detached' });
      await page.getByText('Person updated').first().waitFor();
      const refused = await setPanelRole(page, USER, 'viewer');
      await refused.getByText(/at least one enabled person with the admin role/).first().waitFor();
      await shot(page, 'people-last-admin-refused-desktop');
      await refused.getByRole('button', { name: 'Cancel' }).click();
      const discard = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
      if (await discard.isVisible()) await discard.getByRole('button', { name: 'Discard changes' }).click();
      await (await setPanelRole(page, SECOND, 'admin')).waitFor({ state: 'detached' });
    });

    test('a viewer sees no write buttons, and a write is refused 403', async ({ browser, stack }) => {
      const { base } = stack;
      allowHttp(['PUT', /^\/api\/config$/, 403]);
      const { context, page: v } = await openPage(browser, { baseURL: base, viewport: viewports.desktop });
      await v.goto('/login');
      await v.getByLabel('Username', { exact: true }).fill(VIEWER);
      await v.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await v.getByRole('button', { name: 'Sign in' }).click();
      await v.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      await v.getByRole('banner').getByText('Viewer', { exact: true }).waitFor();
      expect((await v.getByRole('link', { name: 'New service' }).count()) === 0, 'a viewer sees New service on the dashboard').toBeTruthy();
      await navTo(v, 'Domains');
      await v.getByRole('heading', { name: 'Domains', exact: true }).waitFor();
      await v.getByRole('table').waitFor();
      expect((await v.getByRole('button', { name: /^(Add domain|Edit|Delete)/ }).count()) === 0, 'a viewer sees domain write buttons').toBeTruthy();
      await navTo(v, 'People');
      await v.getByRole('row', { name: new RegExp(SECOND) }).first().waitFor();
      expect((await v.getByRole('button', { name: 'Add person' }).count()) === 0, 'a viewer sees Add person').toBeTruthy();
      expect((await v.getByRole('button', { name: /^(Edit|Disable|Remove|Set password|Reset)/ }).count()) === 0, 'a viewer sees write buttons').toBeTruthy();
      await shot(v, 'people-as-viewer-desktop');
      await navTo(v, 'Groups');
      await v.getByRole('row', { name: /family/ }).waitFor();
      await expectReadOnlyPage(v, 'groups');
      await navTo(v, 'Services');
      await v.getByRole('heading', { name: 'Services', exact: true }).waitFor();
      expect((await v.getByRole('link', { name: 'New service' }).count()) === 0, 'a viewer sees New service').toBeTruthy();
      await navTo(v, 'API tokens');
      await v.getByRole('heading', { name: 'API tokens', exact: true }).waitFor();
      expect((await v.getByRole('button', { name: 'New API token' }).count()) === 0, 'a viewer sees New API token').toBeTruthy();
      const answer = await v.evaluate(async () => {
        const res = await fetch('/api/config', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{"defaultEntrypoints":["web"]}' });
        return { status: res.status, body: await res.json() };
      });
      expect(answer.status === 403 && answer.body.error.code === 'forbidden', `viewer write answered ${answer.status} ${JSON.stringify(answer.body)}`).toBeTruthy();
      expect(/read-only/.test(answer.body.error.message), `unclear refusal: ${answer.body.error.message}`).toBeTruthy();
      await context.close();
    });

    test('a viewer walks the main pages read-only: no write button, no error', async ({ page, browser, stack }) => {
      const { base } = stack;
      // The panel's own sign-in settings are kept to the admin role: the page says so calmly.
      allowHttp(['GET', /^\/api\/admin\/(sso|security)$/, 403]);
      // A service of its own: the one the earlier scenarios made may be gone by now.
      const created = await page.evaluate(async () => {
        const domains = await (await fetch('/api/domains')).json();
        const res = await fetch('/api/services', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            name: 'Read only',
            domainId: domains.items[0].id,
            hostnames: [{ type: 'subdomain', value: 'read-only' }],
            targets: [{ scheme: 'http', host: '127.0.0.1', port: 9 }],
            passHostHeader: true,
            insecureSkipVerify: false,
            entrypoints: [],
            rules: [],
            middlewares: [],
            headers: {},
            enabled: false,
          }),
        });
        return { status: res.status, body: await res.json() };
      });
      expect(created.status === 201, `creating the walk's service answered ${created.status} ${JSON.stringify(created.body)}`).toBeTruthy();
      const id = created.body.id;
      await page.evaluate(
        (sid) =>
          fetch(`/api/services/${sid}/access`, {
            method: 'PUT',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ defaultAction: '', rules: [{ action: 'allow', note: 'LAN', sources: ['private'] }] }),
          }),
        id,
      );

      const { context, page: v } = await openPage(browser, { baseURL: base, viewport: viewports.desktop });
      await v.goto('/login');
      await v.getByLabel('Username', { exact: true }).fill(VIEWER);
      await v.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await v.getByRole('button', { name: 'Sign in' }).click();
      await v.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      await v.getByRole('banner').getByText('Viewer', { exact: true }).waitFor();

      await navTo(v, 'Services');
      await v.getByRole('link', { name: 'Read only', exact: true }).first().waitFor();
      await expectReadOnlyPage(v, 'services');
      await v.getByRole('link', { name: 'Read only', exact: true }).first().click();
      await v.getByText('You have read-only access').waitFor();
      expect(await v.getByLabel('Name', { exact: true }).isDisabled(), 'the service name is editable').toBeTruthy();
      expect((await v.getByRole('link', { name: 'Config preview' }).count()) === 0, 'a viewer is offered the config preview').toBeTruthy();
      await expectReadOnlyPage(v, 'service settings');
      await shot(v, 'viewer-service-desktop');
      await v.getByRole('link', { name: 'Security', exact: true }).click();
      await v.getByRole('switch', { name: 'Require basic auth' }).waitFor();
      await v.getByText('You have read-only access').waitFor();
      expect(await v.getByRole('switch', { name: 'Require basic auth' }).isDisabled(), 'basic auth can be switched').toBeTruthy();
      await expectReadOnlyPage(v, 'service security');
      await v.getByRole('link', { name: 'Access', exact: true }).click();
      await v.getByText('Rules (1)').waitFor();
      await v.getByText('You have read-only access').waitFor();
      // The tester posts the draft: a write the server refuses a viewer, so it is not offered.
      expect((await v.getByRole('heading', { name: 'Rule tester' }).count()) === 0, 'a viewer is offered the rule tester').toBeTruthy();
      await v.getByRole('button', { name: /Show/ }).first().click();
      expect(await v.getByLabel('Rule 1 note', { exact: true }).isDisabled(), 'a rule can be edited').toBeTruthy();
      await expectReadOnlyPage(v, 'service access');
      await shot(v, 'viewer-service-access-desktop');

      await navTo(v, 'Access rules');
      await v.getByRole('heading', { name: 'Global access rules', exact: true }).waitFor();
      await v.getByText('You have read-only access').waitFor();
      await expectReadOnlyPage(v, 'global access rules');

      await navTo(v, 'Settings');
      await v.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
      await v.getByText('You have read-only access').waitFor();
      await v.getByLabel('Admin panel domain', { exact: true }).waitFor();
      expect(await v.getByLabel('Admin panel domain', { exact: true }).isDisabled(), 'the admin domain is editable').toBeTruthy();
      await v.getByText('Only administrators with the admin role can see this.').first().waitFor();
      expect((await v.getByText('Only administrators with the admin role can see this.').count()) === 2, 'panel sign-in and sign-in security are not both kept to admins').toBeTruthy();
      await expectReadOnlyPage(v, 'settings');
      await shot(v, 'viewer-settings-desktop');

      await navTo(v, 'Managed Traefik');
      await v.getByRole('heading', { name: 'Managed Traefik', exact: true }).waitFor();
      await expectReadOnlyPage(v, 'managed');

      await navTo(v, 'Audit log');
      await v.getByRole('heading', { name: 'Audit log', exact: true }).waitFor();
      await v.getByLabel('Keep entries for (days)', { exact: true }).waitFor();
      expect(await v.getByLabel('Keep entries for (days)', { exact: true }).isDisabled(), 'the retention is editable').toBeTruthy();
      await expectReadOnlyPage(v, 'audit log');
      await context.close();

      const gone = await page.evaluate((sid) => fetch(`/api/services/${sid}`, { method: 'DELETE' }).then((r) => r.status), id);
      expect(gone === 204, `deleting the walk's service answered ${gone}`).toBeTruthy();
    });

    test('API tokens: shown once, used like curl for a read (200) and a viewer token refused a write (403)', async ({ page, stack }) => {
      const { base } = stack;
      await navTo(page, 'API tokens');
      await page.getByRole('heading', { name: 'API tokens', exact: true }).waitFor();
      const admin = await createToken(page, 'ci-admin', 'admin');
      const viewer = await createToken(page, 'ci-viewer', 'viewer');
      expect((await page.getByText(admin).count()) === 0, 'the token value is still on the page').toBeTruthy();
      let status = await withToken(base, admin, 'GET', '/api/services');
      expect(status === 200, `GET /api/services with the admin token answered ${status}`).toBeTruthy();
      status = await withToken(base, viewer, 'GET', '/api/services');
      expect(status === 200, `GET /api/services with the viewer token answered ${status}`).toBeTruthy();
      status = await withToken(base, viewer, 'POST', '/api/services', { name: 'nope' });
      expect(status === 403, `POST /api/services with the viewer token answered ${status}`).toBeTruthy();
      status = await withToken(base, admin, 'POST', '/api/admin/tokens', { name: 'minted', role: 'viewer' });
      expect(status === 403, `a token creating a token answered ${status}`).toBeTruthy();
      await page.reload();
      const row = page.getByRole('row', { name: /ci-admin/ });
      await row.getByText('127.0.0.1').waitFor();
      await shot(page, 'api-tokens-desktop');
      await page.getByRole('button', { name: 'Revoke ci-admin' }).click();
      await page.getByRole('dialog', { name: 'Revoke ci-admin?' }).getByRole('button', { name: 'Revoke token' }).click();
      await row.getByText('Revoked').waitFor();
      status = await withToken(base, admin, 'GET', '/api/services');
      expect(status === 401, `a revoked token answered ${status}`).toBeTruthy();
    });
  });
}
