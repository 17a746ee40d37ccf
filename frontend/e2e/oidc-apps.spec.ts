// The panel as the OpenID provider of a real third-party app, in Chromium: oauth2-proxy (built
// once by backend/scripts/oauth2-proxy.sh) signs people in with the panel and guards an upstream
// that shows the identity headers it receives; a real Traefik routes the app's host to
// oauth2-proxy (a service of the panel, as a self-hoster would add it). The admin adds dana to
// family and erin to guests and registers oauth2-proxy as a client for family on the Apps page
// (its secret shown once); dana adds a passkey to her portal account and signs
// out, opens the app, signs in on the portal with her passkey alone, consents, and the
// upstream's page shows oauth2-proxy's identity headers with her id, username, e-mail and groups. erin, in guests only, is refused with the portal's
// readable page and never reaches the upstream. Then the admin makes the app require a second
// factor: frank, in family with a password only, is told to add one, adds a passkey from the
// portal session he has, is asked by the app to sign in again with it (step-up), and gets in.
//
// The panel is http://127.0.0.1:<port>; the portal, the issuer, is http://localhost:<port>: the
// one name oauth2-proxy (Go) resolves without DNS and that Chromium treats as a secure context
// (passkeys work there). The app is https://app.localhost:<Traefik's websecure port> (Chromium
// resolves every *.localhost name to the loopback address; the clients' administration takes
// http redirect URIs only on localhost itself).
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { findOAuth2Proxy, freePort, type Traefik } from './support/harness';
import { PASSWORD, USER } from './support/names';
import { openPage, shot, signInToPanel } from './support/page';
import { test as base, expect } from './support/test';

const DANA = 'dana';
const DANA_PASSWORD = 'dana-portal-password-2026';
const ERIN = 'erin';
const ERIN_PASSWORD = 'erin-portal-password-2026';
const FRANK = 'frank';
const FRANK_PASSWORD = 'frank-portal-password-2026';
const CLIENT = 'Wiki (oauth2-proxy)';

interface Stack {
  panelURL: string;
  portalURL: string;
  traefik: Traefik;
  admin: Page;
  /** The app through Traefik's websecure entrypoint (its default, self-signed certificate). */
  appURL: string;
  groups: { family: string; guests: string };
  people: Map<string, { context: BrowserContext; page: Page }>;
}

const test = base.extend<{ page: Page }, { stack: Stack | null }>({
  stack: [
    async ({ harness, browser }, use) => {
      const port = await freePort();
      const panelURL = `http://127.0.0.1:${port}`;
      const portalURL = `http://localhost:${port}`;
      const panel = await harness.startPanel({
        port,
        env: { PANEL_PUBLIC_URL: panelURL, PANEL_PORTAL_URL: portalURL, PANEL_ADMIN_USER: USER, PANEL_ADMIN_PASSWORD: PASSWORD },
        dirPrefix: 'gatehouse-e2e-oidc-apps-',
      });
      await panel.ready();
      const traefik = findOAuth2Proxy() ? await harness.startTraefik(port) : null;
      if (!traefik) {
        await use(null);
        return;
      }
      const { context, page: admin } = await openPage(browser, { baseURL: panelURL });
      await signInToPanel(admin, USER, PASSWORD);
      const group = async (name: string) => {
        const res = await admin.request.post('/api/groups', { data: { name } });
        expect(res.status(), await res.text()).toBe(201);
        return ((await res.json()) as { id: string }).id;
      };
      const groups = { family: await group('family'), guests: await group('guests') };
      const appURL = `https://app.localhost:${traefik.websecure}`;
      const s: Stack = { panelURL, portalURL, traefik, admin, appURL, groups, people: new Map() };
      await use(s);
      for (const person of s.people.values()) await person.context.close();
      await context.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ stack }, use) => {
    await use(stack!.admin);
  },
});

test.describe.configure({ mode: 'serial' });

/** The person's own browser profile, with a virtual authenticator for passkeys. */
async function personPage(s: Stack, browser: Browser, who: string): Promise<Page> {
  const known = s.people.get(who);
  if (known) return known.page;
  const context = await browser.newContext({ locale: 'en-US', ignoreHTTPSErrors: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  s.people.set(who, { context, page });
  return page;
}

test.describe('oidcApps', () => {
  test('the admin sets the portal, adds dana to family and erin to guests, and registers oauth2-proxy as a client for family on the Apps page', async ({ page, stack, harness }) => {
    test.skip(!stack, 'needs a Traefik binary and oauth2-proxy (backend/scripts/oauth2-proxy.sh)');
    const s = stack!;
    const portal = await page.request.get('/api/config/portal');
    expect(portal.status()).toBe(200);
    const put = await page.request.put('/api/config/portal', { data: { ...(await portal.json()), host: 'localhost' } });
    expect(put.status(), await put.text()).toBe(200);

    const dana = await page.request.post('/api/people', {
      data: { username: DANA, email: 'dana@home.test', panelRole: 'none', password: DANA_PASSWORD, groups: [s.groups.family] },
    });
    expect(dana.status(), await dana.text()).toBe(201);
    const erin = await page.request.post('/api/people', {
      data: { username: ERIN, email: 'erin@home.test', panelRole: 'none', password: ERIN_PASSWORD, groups: [s.groups.guests] },
    });
    expect(erin.status(), await erin.text()).toBe(201);

    // The client, as an admin registers oauth2-proxy on the Apps page: its callback on the app's
    // host, family only, the groups scope; the secret is shown once.
    await page.goto('/apps');
    await page.getByRole('button', { name: 'New app' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New app' });
    await dialog.getByLabel('Name', { exact: true }).fill(CLIENT);
    await dialog.getByLabel('Redirect URIs', { exact: true }).fill(`${s.appURL}/oauth2/callback`);
    await dialog.getByRole('group', { name: 'Who may sign in' }).getByLabel('family', { exact: true }).check();
    await dialog.getByRole('group', { name: 'Scopes' }).getByLabel('groups', { exact: true }).check();
    await dialog.getByRole('button', { name: 'Create app' }).click();
    const shown = page.getByRole('dialog', { name: `Secret of ${CLIENT}` });
    const secret = await shown.getByLabel('Client secret', { exact: true }).inputValue();
    const clientId = await shown.getByLabel('Client ID', { exact: true }).inputValue();
    expect(secret, 'a confidential client shows its secret once').toBeTruthy();
    await shot(page, 'oidc-apps-secret-once-desktop');
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('cell', { name: CLIENT }).first().waitFor();

    // oauth2-proxy reads the provider's discovery document when it starts.
    await expect.poll(async () => (await fetch(`${s.portalURL}/.well-known/openid-configuration`)).status, { timeout: 15000 }).toBe(200);
    const port = await freePort();
    const upstream = await harness.startHeadersUpstream();
    expect(
      await harness.startOAuth2Proxy({
        issuer: s.portalURL,
        clientId,
        clientSecret: secret,
        redirectURL: `${s.appURL}/oauth2/callback`,
        upstream: `http://127.0.0.1:${upstream.port}`,
        port,
      }),
    ).toBe(true);
    const service = await page.request.post('/api/services', {
      data: { name: 'Wiki', hostnames: [{ type: 'custom', value: 'app.localhost' }], targets: [{ host: '127.0.0.1', port }], entrypoints: ['websecure'] },
    });
    expect(service.status(), await service.text()).toBe(201);
  });

  test('dana signs in on the portal with her password, adds a passkey to her account and signs out', async ({ stack, browser }) => {
    test.skip(!stack, 'needs a Traefik binary and oauth2-proxy (backend/scripts/oauth2-proxy.sh)');
    const s = stack!;
    const p = await personPage(s, browser, DANA);
    await p.goto(`${s.portalURL}/login`);
    await p.getByLabel('Username', { exact: true }).fill(DANA);
    await p.getByLabel('Password', { exact: true }).fill(DANA_PASSWORD);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
    await p.waitForURL((u) => u.pathname !== '/login');
    await p.goto(`${s.portalURL}/account`);
    await p.getByLabel('Name for the passkey', { exact: true }).fill('Laptop');
    await p.getByRole('button', { name: 'Add a passkey' }).click();
    await p.getByText('Passkey added').waitFor();
    await p.getByRole('banner').getByRole('button', { name: 'Sign out everywhere' }).click();
    await p.waitForURL(/\/login/);
  });

  test('dana opens the app, signs in on the portal with her passkey, consents, and the upstream gets her identity from oauth2-proxy', async ({ stack, browser, page }) => {
    test.skip(!stack, 'needs a Traefik binary and oauth2-proxy (backend/scripts/oauth2-proxy.sh)');
    const s = stack!;
    const people = await page.request.get(`/api/people?q=${DANA}`);
    const dana = ((await people.json()) as { items: { id: string; username: string }[] }).items.find((x) => x.username === DANA);
    expect(dana, 'dana is in the directory').toBeTruthy();

    const p = await personPage(s, browser, DANA);
    // Traefik picks the app's router up within its poll interval; oauth2-proxy then sends the
    // browser to the provider, which sends it to the portal's sign-in page.
    const began = Date.now();
    await expect
      .poll(
        async () => {
          await p.goto(`${s.appURL}/notes?page=2`);
          return new URL(p.url()).origin;
        },
        { timeout: 20000, intervals: [500] },
      )
      .toBe(s.portalURL);
    await p.waitForURL((u) => u.pathname === '/login');
    await p.getByRole('button', { name: 'Use a passkey' }).click();
    await p.waitForURL((u) => u.pathname === '/apps/consent');
    await p.getByRole('heading', { name: `Sign in to ${CLIENT}?` }).waitFor();
    await expect(p.getByText('See the groups you are in')).toBeVisible();
    await shot(p, 'oidc-apps-consent-desktop');
    await p.getByRole('button', { name: 'Allow', exact: true }).click();
    await p.getByRole('heading', { name: 'hello from the app upstream' }).waitFor();
    console.log(`dana: from opening the app to the upstream's page (portal passkey sign-in, consent, code exchange): ${Date.now() - began} ms`);
    expect(p.url()).toBe(`${s.appURL}/notes?page=2`);
    const headers = p.getByRole('list', { name: 'Identity headers' });
    await expect(headers.getByText(`x-forwarded-user: ${dana!.id}`, { exact: true })).toBeVisible();
    await expect(headers.getByText(`x-forwarded-preferred-username: ${DANA}`, { exact: true })).toBeVisible();
    await expect(headers.getByText('x-forwarded-email: dana@home.test', { exact: true })).toBeVisible();
    await expect(headers.getByText('x-forwarded-groups: family', { exact: true })).toBeVisible();
    await shot(p, 'oidc-apps-upstream-identity-desktop');
  });

  test('erin, in guests only, signs in with her password and gets the portal’s readable refusal, not the app', async ({ stack, browser }) => {
    test.skip(!stack, 'needs a Traefik binary and oauth2-proxy (backend/scripts/oauth2-proxy.sh)');
    const s = stack!;
    const p = await personPage(s, browser, ERIN);
    await p.goto(`${s.appURL}/`);
    await p.waitForURL((u) => u.origin === s.portalURL && u.pathname === '/login');
    await p.getByLabel('Username', { exact: true }).fill(ERIN);
    await p.getByLabel('Password', { exact: true }).fill(ERIN_PASSWORD);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
    await p.waitForURL((u) => u.pathname === '/apps/refused');
    await p.getByRole('heading', { name: `You cannot use ${CLIENT}` }).waitFor();
    await expect(p.getByText('Your account is not allowed to use this app')).toBeVisible();
    await shot(p, 'oidc-apps-refused-desktop');
    await p.goto(`${s.appURL}/`);
    await expect(p.getByRole('heading', { name: 'hello from the app upstream' })).toHaveCount(0);
  });
  test('the admin requires a second factor for the app; frank, in family with a password only, is told to add one, adds a passkey and steps up with it', async ({ page, stack, browser }) => {
    test.skip(!stack, 'needs a Traefik binary and oauth2-proxy (backend/scripts/oauth2-proxy.sh)');
    const s = stack!;
    const frank = await page.request.post('/api/people', {
      data: { username: FRANK, email: 'frank@home.test', panelRole: 'none', password: FRANK_PASSWORD, groups: [s.groups.family] },
    });
    expect(frank.status(), await frank.text()).toBe(201);
    const frankId = ((await frank.json()) as { id: string }).id;

    await page.goto('/apps');
    await page.getByRole('button', { name: `Edit ${CLIENT}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${CLIENT}` });
    await dialog.getByRole('switch', { name: 'Require a second factor' }).check({ force: true });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('2FA', { exact: true }).first()).toBeVisible();

    // frank signs in with his password: he has no second factor, so the app cannot take him yet.
    const p = await personPage(s, browser, FRANK);
    await p.goto(`${s.appURL}/`);
    await p.waitForURL((u) => u.origin === s.portalURL && u.pathname === '/login');
    await p.getByLabel('Username', { exact: true }).fill(FRANK);
    await p.getByLabel('Password', { exact: true }).fill(FRANK_PASSWORD);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
    await p.waitForURL((u) => u.pathname === '/apps/refused');
    await p.getByRole('heading', { name: `${CLIENT} asks for a second factor` }).waitFor();
    await shot(p, 'oidc-apps-second-factor-missing-desktop');
    await p.getByRole('link', { name: 'Go to your account page' }).click();
    await p.waitForURL((u) => u.pathname === '/account');
    await p.getByLabel('Name for the passkey', { exact: true }).fill('Phone');
    await p.getByRole('button', { name: 'Add a passkey' }).click();
    await p.getByText('Passkey added').waitFor();

    // His portal session was made with a password: the app asks him to sign in again with the
    // passkey (the portal's step-up), then lets him in.
    const began = Date.now();
    await p.goto(`${s.appURL}/`);
    await p.waitForURL((u) => u.origin === s.portalURL && u.pathname === '/login' && u.searchParams.get('stepup') === '1');
    await p.getByRole('heading', { name: 'Sign in again' }).waitFor();
    await shot(p, 'oidc-apps-step-up-desktop');
    await p.getByRole('button', { name: 'Use a passkey' }).click();
    await p.waitForURL((u) => u.pathname === '/apps/consent');
    await p.getByRole('button', { name: 'Allow', exact: true }).click();
    await p.getByRole('heading', { name: 'hello from the app upstream' }).waitFor();
    console.log(`frank: from opening the app to the upstream's page (step-up with a passkey, consent): ${Date.now() - began} ms`);
    const headers = p.getByRole('list', { name: 'Identity headers' });
    await expect(headers.getByText(`x-forwarded-user: ${frankId}`, { exact: true })).toBeVisible();
  });

  test('the admin adds Grafana from its preset and its service: the callback, sign-out address, scopes and role mapping come from Grafana’s documentation', async ({ page, stack }) => {
    test.skip(!stack, 'needs a Traefik binary and oauth2-proxy (backend/scripts/oauth2-proxy.sh)');
    await page.goto('/apps');
    await page.getByRole('button', { name: 'New app' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New app' });
    await dialog.getByLabel('App', { exact: true }).selectOption({ label: 'Grafana' });
    await dialog.getByLabel(/^Service/).selectOption({ label: 'Wiki' });
    await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue('Grafana');
    await expect(dialog.getByLabel('Redirect URIs', { exact: true })).toHaveValue('https://app.localhost/login/generic_oauth');
    await expect(dialog.getByRole('group', { name: 'Scopes' }).getByLabel('groups', { exact: true })).toBeChecked();
    await expect(dialog.getByText('role_attribute_path = grafana_role', { exact: false })).toBeVisible();
    await dialog.getByRole('button', { name: 'Create app' }).click();
    const shown = page.getByRole('dialog', { name: 'Secret of Grafana' });
    expect(await shown.getByLabel('Client secret', { exact: true }).inputValue()).toBeTruthy();
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    const list = await page.request.get('/api/oidc/clients');
    type Client = { id: string; name: string; preset: string; redirectUris: string[]; postLogoutRedirectUris: string[]; claimMappings: { claim: string }[] };
    const grafana = ((await list.json()) as { items: Client[] }).items.find((c) => c.name === 'Grafana');
    expect(grafana?.preset).toBe('grafana');
    expect(grafana?.redirectUris).toEqual(['https://app.localhost/login/generic_oauth']);
    expect(grafana?.postLogoutRedirectUris).toEqual(['https://app.localhost/login']);
    expect(grafana?.claimMappings.map((m) => m.claim)).toEqual(['grafana_role']);
    expect((await page.request.delete(`/api/oidc/clients/${grafana!.id}`)).status()).toBe(204);
  });
});
