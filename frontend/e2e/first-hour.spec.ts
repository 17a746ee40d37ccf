// A newcomer's first hour, Traefik on the same host: from an empty data directory, following
// only what the panel's pages say, to a service protected by basic auth, reached in Chromium
// through a real Traefik started from the traefik.yml the setup guide gave (copied with its Copy
// button, from the clipboard). What a person does outside the browser is done here the same
// way: save the file, start Traefik with it, set the guide's variables and restart the panel.
// Two changes a person on a shared machine would make too: the entrypoints' :80 and :443, and
// the API's port, become free ports (the file and the variables both, as the guide pairs them).
import { freePort, findTraefik } from './support/harness';
import { PASSWORD, USER } from './support/names';
import { openPage } from './support/page';
import { test, expect, eventually } from './support/test';

const DOMAIN = 'home.localhost';
const SET_USER = 'alice';
const SET_PASSWORD = 'wonderland-2026';

test('first hour on the same host: guide, Traefik, service, basic auth', async ({ harness, browser }) => {
  test.skip(!findTraefik(), 'no Traefik binary (TRAEFIK_BIN)');
  test.setTimeout(180_000);
  const port = await freePort();
  const upstream = await harness.startUpstream();
  const first = await harness.startPanel({ port, dirPrefix: 'gatehouse-e2e-first-hour-' });
  await first.ready();
  const base = `http://127.0.0.1:${port}`;

  const { context, page } = await openPage(browser, { baseURL: base });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });

  // make run: the first page is the setup.
  await page.goto('/');
  await page.waitForURL('**/setup');
  await page.getByLabel('Username', { exact: true }).fill(USER);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create administrator' }).click();
  await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();

  // The dashboard says Traefik has never polled and offers the guide: Traefik on this host.
  const guide = page.getByTestId('setup-guide');
  await guide.getByRole('tab', { name: 'Traefik on this host' }).click();
  await guide.getByRole('button', { name: 'Copy traefik.yml' }).click();
  let yml = await page.evaluate(() => navigator.clipboard.readText());
  await guide.getByRole('button', { name: 'Copy variables' }).click();
  let env = await page.evaluate(() => navigator.clipboard.readText());
  expect(yml, 'the guide names the provider at the panel').toContain(`/api/proxy/config`);

  // Free ports for the entrypoints and the API, in the file and the variables alike.
  const web = await freePort();
  const websecure = await freePort();
  const api = await freePort();
  const guideAPI = /PANEL_PROXY_API_URL=http:\/\/([^\s]+)/.exec(env)?.[1];
  expect(guideAPI, `the variables name Traefik's API: ${env}`).toBeTruthy();
  yml = yml.replace('address: ":80"', `address: "127.0.0.1:${web}"`).replace('address: ":443"', `address: "127.0.0.1:${websecure}"`).replaceAll(`"${guideAPI}"`, `"127.0.0.1:${api}"`);
  env = env.replaceAll(guideAPI!, `127.0.0.1:${api}`);
  expect(yml, 'the file has the entrypoints the guide promised').toContain(`127.0.0.1:${websecure}`);
  expect(harness.startTraefikFrom(yml)).toBeTruthy();

  // "Set these and restart the panel."
  const vars: Record<string, string> = {};
  for (const line of env.split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) vars[m[1]!] = m[2]!;
  }
  first.proc.kill('SIGTERM');
  await new Promise((r) => first.proc.once('exit', r));
  const panel = await harness.startPanel({ port, dir: first.dir, env: vars });
  await panel.ready();

  // The dashboard turns green once Traefik fetched the configuration.
  await page.goto('/');
  await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  await expect(page.getByText('Traefik polls the configuration')).toBeVisible({ timeout: 30_000 });

  // A domain, a credential set, a service, its protection: each from its page.
  await page.goto('/domains');
  await page.getByRole('button', { name: 'Add domain' }).first().click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Domain', { exact: true }).fill(DOMAIN);
  await dialog.getByRole('button', { name: 'Add domain' }).click();
  await dialog.waitFor({ state: 'detached' });

  await page.goto('/credential-sets');
  await page.getByRole('button', { name: /New set|Create a set/ }).first().click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill('Family');
  await dialog.getByLabel('User 1 username', { exact: true }).fill(SET_USER);
  await dialog.getByLabel('User 1 password', { exact: true }).fill(SET_PASSWORD);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });

  await page.goto('/services/new');
  await page.getByLabel('Name', { exact: true }).fill('App');
  await page.getByLabel('Hostname 1', { exact: true }).fill('app');
  await page.getByLabel('Target 1 host', { exact: true }).fill(`http://127.0.0.1:${upstream.port}`);
  await page.getByRole('button', { name: 'Create service' }).click();
  await page.waitForURL(/\/services\/[^/?]+\?created=1$/);
  await page.getByTestId('next-steps').getByRole('link', { name: 'Protect it' }).click();
  // The form fills in once the service's protections arrive: switch it on after that.
  await page.waitForURL(/\/security$/);
  await page.waitForLoadState('networkidle');
  await expect(async () => {
    await page.getByRole('switch', { name: 'Require basic auth' }).check({ force: true });
  }).toPass({ timeout: 10_000 });
  await page.getByLabel('Credential set', { exact: true }).selectOption({ label: 'Family (1 user)' });
  const bar = page.getByTestId('protection-save-bar');
  await bar.getByRole('button', { name: 'Save protection' }).click();
  await bar.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();

  // A visitor in Chromium: refused without the password, let in with it.
  const host = `app.${DOMAIN}`;
  const url = `https://${host}:${websecure}/`;
  const stranger = await browser.newContext({ ignoreHTTPSErrors: true });
  // Chromium ends a navigation that meets a challenge without credentials
  // (ERR_INVALID_AUTH_CREDENTIALS): the refusal is the answer it saw on the way.
  let last = '';
  const refused = await eventually(
    async () => {
      const p = await stranger.newPage();
      const answer = p.waitForResponse((r) => r.url() === url, { timeout: 5000 }).catch(() => null);
      await p.goto(url).catch((e: Error) => {
        last = e.message.split('\n')[0] ?? '';
      });
      const res = await answer;
      const challenge = res ? ((await res.allHeaders())['www-authenticate'] ?? '') : '';
      if (res) last = `${res.status()} ${challenge}`;
      await p.close();
      return res?.status() === 401 && /^Basic /i.test(challenge) ? 401 : 0;
    },
    { timeoutMs: 30_000 },
  );
  if (refused !== 401) {
    const routers = await fetch(`http://127.0.0.1:${api}/api/http/routers`).then((r) => r.text()).catch((e: Error) => e.message);
    console.log(`Traefik's routers: ${routers}\ntraefik.yml:\n${yml}\nvariables: ${JSON.stringify(vars)}`);
  }
  expect(refused, `${url} without credentials asks for basic auth: last answer ${last}`).toBe(401);
  await stranger.close();

  const friend = await browser.newContext({ ignoreHTTPSErrors: true, httpCredentials: { username: SET_USER, password: SET_PASSWORD } });
  const fp = await friend.newPage();
  const res = await fp.goto(url);
  expect(res?.status(), `${url} with alice's password`).toBe(200);
  await expect(fp.getByText('hello from the wiki upstream')).toBeVisible();
  await friend.close();
  await context.close();
});
