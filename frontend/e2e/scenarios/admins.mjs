// Several administrators: adding a second admin and a viewer, the panel refusing to lose
// its last admin, what a viewer sees (no write buttons) and what the server answers them
// (403), and API tokens used from outside the browser the way curl would.
import { PASSWORD, USER } from '../fixtures.mjs';
import { navTo, openPage, shot, viewports } from '../page.mjs';
import { expect } from '../runner.mjs';

const SECOND = 'second-admin';
const VIEWER = 'viewer';

async function addAdministrator(page, username, role) {
  await page.getByRole('button', { name: 'Add administrator' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add administrator' });
  await dialog.getByLabel('Username', { exact: true }).fill(username);
  await dialog.getByLabel('Role', { exact: true }).selectOption(role);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Add administrator' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('cell', { name: username, exact: true }).or(page.getByRole('row', { name: new RegExp(username) })).first().waitFor();
}

/** Creates an API token on the API tokens page and returns its value. */
async function createToken(page, name, role) {
  await page.getByRole('button', { name: 'New API token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API token' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Role', { exact: true }).selectOption(role);
  await dialog.getByRole('button', { name: 'Create token' }).click();
  const ready = page.getByRole('dialog', { name: 'API token ready' });
  const value = await ready.getByLabel('API token value').inputValue();
  expect(value.startsWith('gha_'), `token value ${value.slice(0, 6)}… lacks the gha_ prefix`);
  await ready.getByRole('button', { name: 'I have copied it' }).click();
  await ready.waitFor({ state: 'detached' });
  return value;
}

/** Calls the API from Node, as a script with a token would (no cookie, no browser). */
async function withToken(base, value, method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { Authorization: `Bearer ${value}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.status;
}

export async function admins(t, page, browser, base) {
  await t.step('administrators: add a second admin and a viewer', async () => {
    await page.goto('/');
    await navTo(page, 'Administrators');
    await page.getByRole('heading', { name: 'Administrators', exact: true }).waitFor();
    await addAdministrator(page, SECOND, 'admin');
    await addAdministrator(page, VIEWER, 'viewer');
    expect((await page.getByRole('table').getByRole('row').count()) === 4, 'expected a header and 3 administrators');
    await shot(page, 'admins-desktop');
  });

  await t.step(
    'the last active admin cannot step down: the server says why',
    async () => {
      await page.getByLabel(`Role of ${SECOND}`).selectOption('viewer');
      await page.getByText('Administrator updated').first().waitFor();
      await page.getByLabel(`Role of ${USER}`).selectOption('viewer');
      await page.getByRole('alert').filter({ hasText: 'at least one active administrator' }).waitFor();
      await shot(page, 'admins-last-admin-refused-desktop');
      await page.getByLabel(`Role of ${SECOND}`).selectOption('admin');
      await page.getByRole('alert').filter({ hasText: 'at least one active administrator' }).waitFor({ state: 'detached' });
    },
    { allowHttp: [['PATCH', /^\/api\/admin\/users\/[^/]+$/, 409]] },
  );

  await t.step(
    'a viewer sees no write buttons, and a write is refused 403',
    async () => {
      const { context, page: v } = await openPage(browser, t, { baseURL: base, viewport: viewports.desktop });
      await v.goto('/login');
      await v.getByLabel('Username', { exact: true }).fill(VIEWER);
      await v.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await v.getByRole('button', { name: 'Sign in' }).click();
      await v.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      await v.getByRole('banner').getByText('Viewer', { exact: true }).waitFor();
      expect((await v.getByRole('link', { name: 'New service' }).count()) === 0, 'a viewer sees New service on the dashboard');
      await navTo(v, 'Domains');
      await v.getByRole('heading', { name: 'Domains', exact: true }).waitFor();
      await v.getByRole('table').waitFor();
      expect((await v.getByRole('button', { name: /^(Add domain|Edit|Delete)/ }).count()) === 0, 'a viewer sees domain write buttons');
      await navTo(v, 'Administrators');
      await v.getByRole('cell', { name: SECOND }).first().waitFor();
      expect((await v.getByRole('button', { name: 'Add administrator' }).count()) === 0, 'a viewer sees Add administrator');
      expect((await v.getByRole('combobox').count()) === 0, 'a viewer sees role pickers');
      expect((await v.getByRole('button', { name: /^(Disable|Remove|Set password)/ }).count()) === 0, 'a viewer sees write buttons');
      await shot(v, 'admins-as-viewer-desktop');
      await navTo(v, 'Services');
      await v.getByRole('heading', { name: 'Services', exact: true }).waitFor();
      expect((await v.getByRole('link', { name: 'New service' }).count()) === 0, 'a viewer sees New service');
      await navTo(v, 'API tokens');
      await v.getByRole('heading', { name: 'API tokens', exact: true }).waitFor();
      expect((await v.getByRole('button', { name: 'New API token' }).count()) === 0, 'a viewer sees New API token');
      const answer = await v.evaluate(async () => {
        const res = await fetch('/api/config', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{"defaultEntrypoints":["web"]}' });
        return { status: res.status, body: await res.json() };
      });
      expect(answer.status === 403 && answer.body.error.code === 'forbidden', `viewer write answered ${answer.status} ${JSON.stringify(answer.body)}`);
      expect(/read-only/.test(answer.body.error.message), `unclear refusal: ${answer.body.error.message}`);
      await context.close();
    },
    { allowHttp: [['PUT', /^\/api\/config$/, 403]] },
  );

  await t.step('API tokens: shown once, used like curl for a read (200) and a viewer token refused a write (403)', async () => {
    await navTo(page, 'API tokens');
    await page.getByRole('heading', { name: 'API tokens', exact: true }).waitFor();
    const admin = await createToken(page, 'ci-admin', 'admin');
    const viewer = await createToken(page, 'ci-viewer', 'viewer');
    expect((await page.getByText(admin).count()) === 0, 'the token value is still on the page');
    let status = await withToken(base, admin, 'GET', '/api/services');
    expect(status === 200, `GET /api/services with the admin token answered ${status}`);
    status = await withToken(base, viewer, 'GET', '/api/services');
    expect(status === 200, `GET /api/services with the viewer token answered ${status}`);
    status = await withToken(base, viewer, 'POST', '/api/services', { name: 'nope' });
    expect(status === 403, `POST /api/services with the viewer token answered ${status}`);
    status = await withToken(base, admin, 'POST', '/api/admin/tokens', { name: 'minted', role: 'viewer' });
    expect(status === 403, `a token creating a token answered ${status}`);
    await page.reload();
    const row = page.getByRole('row', { name: /ci-admin/ });
    await row.getByText('127.0.0.1').waitFor();
    await shot(page, 'api-tokens-desktop');
    await page.getByRole('button', { name: 'Revoke ci-admin' }).click();
    await page.getByRole('dialog', { name: 'Revoke ci-admin?' }).getByRole('button', { name: 'Revoke token' }).click();
    await row.getByText('Revoked').waitFor();
    status = await withToken(base, admin, 'GET', '/api/services');
    expect(status === 401, `a revoked token answered ${status}`);
  });
}
