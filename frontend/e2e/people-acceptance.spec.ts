// People, the portal and one sign-in for every service, walked as a new admin and two new
// people would, in Chromium, through a real Traefik, on a panel of its own whose mail goes
// through a real SMTP receiver. The admin creates the groups family and admins, invites dana by
// e-mail and eli by link; dana sets up a passkey only, eli a password and then an authenticator
// app. Service A admits family; service B admits admins and its /admin path asks for a second
// factor. Each person signs in once on the portal and opens what they may without signing in
// again, is refused the rest, and sees exactly their services on the launcher; signing out
// everywhere ends every service session; disabling a person refuses their next request.
//
// The panel is http://localhost:<port> and the portal http://auth.localhost:<port> (Chromium
// treats *.localhost as a secure context, so passkeys work there); a.people.test and
// b.people.test resolve to Traefik's websecure entrypoint.
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { freePort, type Traefik } from './support/harness';
import { PASSWORD, USER } from './support/names';
import { openPage, saveProtection, shot, signInToPanel } from './support/page';
import { addMailChannel, mailText, startReceiver, stopReceiver, type Receiver } from './support/smtp';
import { allowHttp, test as base, eventually, expect } from './support/test';
import { stepNow, totp } from './support/totp';

const A = 'a.people.test';
const B = 'b.people.test';
const DANA = 'dana';
const ELI = 'eli';
const ELI_PASSWORD = 'eli-portal-password-2026';

interface Stack {
  panelURL: string;
  portalURL: string;
  traefik: Traefik;
  smtp: Receiver;
  admin: Page;
  services: { a: string; b: string };
  /** A browser whose DNS sends A and B to Traefik's websecure entrypoint. */
  people: Browser;
  /** Each person's own browser profile, kept across the steps. */
  contexts: Map<string, { context: BrowserContext; page: Page }>;
  /** What a step leaves for the next: eli's invitation link, his app's secret and last code step. */
  eli: { link?: string; secret?: string; step?: number };
}

const test = base.extend<{ page: Page }, { stack: Stack | null }>({
  stack: [
    async ({ harness, browser }, use) => {
      const port = await freePort();
      const panelURL = `http://localhost:${port}`;
      const portalURL = `http://auth.localhost:${port}`;
      const panel = await harness.startPanel({
        port,
        env: { PANEL_PUBLIC_URL: panelURL, PANEL_PORTAL_URL: portalURL, PANEL_ADMIN_USER: USER, PANEL_ADMIN_PASSWORD: PASSWORD },
        dirPrefix: 'gatehouse-e2e-people-',
      });
      await panel.ready();
      const traefik = await harness.startTraefik(port);
      if (!traefik) {
        await use(null);
        return;
      }
      const smtp = await startReceiver();
      const upstream = await harness.startUpstream();
      const { context, page: admin } = await openPage(browser, { baseURL: panelURL });
      await signInToPanel(admin, USER, PASSWORD);
      await addMailChannel(admin, smtp, 'people mail');
      const service = async (name: string, host: string) => {
        const res = await admin.request.post('/api/services', {
          data: { name, hostnames: [{ type: 'custom', value: host }], targets: [{ host: '127.0.0.1', port: upstream.port }], entrypoints: ['websecure'] },
        });
        expect(res.status(), `service ${name} was not created`).toBe(201);
        return ((await res.json()) as { id: string }).id;
      };
      const services = { a: await service('Photos', A), b: await service('Admin tools', B) };
      const people = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', `--host-resolver-rules=MAP ${A} 127.0.0.1:${traefik.websecure}, MAP ${B} 127.0.0.1:${traefik.websecure}`],
      });
      await use({ panelURL, portalURL, traefik, smtp, admin, services, people, contexts: new Map(), eli: {} });
      await people.close();
      await context.close();
      stopReceiver(smtp);
    },
    { scope: 'worker' },
  ],
  page: async ({ stack }, use) => {
    await use(stack!.admin);
  },
});

test.describe.configure({ mode: 'serial' });

/** The person's own browser profile, with a virtual authenticator for passkeys. */
async function personPage(stack: Stack, who: string): Promise<Page> {
  const known = stack.contexts.get(who);
  if (known) return known.page;
  const context = await stack.people.newContext({ ignoreHTTPSErrors: true, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  stack.contexts.set(who, { context, page });
  return page;
}

/** Opens a service's address and waits for the upstream's page. */
async function reaches(p: Page, url: string) {
  await p.goto(url);
  await p.getByText('hello from the wiki upstream').waitFor();
  expect(p.url()).toBe(url);
}

/** Opens a service's address and expects the portal's page saying this person may not. */
async function refused(p: Page, url: string, who: string) {
  await p.goto(url);
  await p.getByText(`You are signed in as ${who}`).waitFor();
}

/** Opens a service's address and expects to be sent to the portal's sign-in page. */
async function askedToSignIn(p: Page, stack: Stack, url: string) {
  await p.goto(url);
  await p.waitForURL((u) => u.origin === stack.portalURL && u.pathname === '/login');
  await p.getByRole('heading', { name: /^Sign in/ }).waitFor();
}

async function launcherServices(p: Page, stack: Stack): Promise<string[]> {
  await p.goto(`${stack.portalURL}/`);
  await p.getByRole('heading', { name: 'Your services' }).waitFor();
  // Each tile's accessible name: the service's name (the letter icon is hidden from it).
  const tiles = p.getByRole('main').getByRole('link');
  const names: string[] = [];
  for (let i = 0; i < (await tiles.count()); i++) names.push((await tiles.nth(i).locator('strong').textContent())?.trim() ?? '');
  return names;
}

test.describe('peopleAcceptance', () => {
  test('the admin names the portal, creates family and admins, and invites dana by e-mail and eli by link', async ({ page, stack }) => {
    test.skip(!stack, 'needs a Traefik binary');
    const s = stack!;
    await page.goto('/settings');
    await page.getByLabel('Portal host').fill('auth.localhost');
    await page.getByLabel('Name', { exact: true }).fill('Home');
    await page.getByRole('button', { name: 'Save portal' }).click();
    await page.getByText('Sign-in portal saved').waitFor();

    await page.goto('/notifications');
    await page.getByLabel(/E-mail to people goes through/).selectOption({ label: 'people mail' });
    await page.getByRole('form', { name: 'Notification settings' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText(/saved/i).first().waitFor();

    await page.goto('/groups');
    for (const name of ['family', 'admins']) {
      await page.getByRole('button', { name: 'Add group' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add group' });
      await dialog.getByLabel('Name', { exact: true }).fill(name);
      await dialog.getByRole('button', { name: 'Add group' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('row', { name: new RegExp(name) }).waitFor();
    }

    await page.goto('/people');
    const invite = async (username: string, email: string, delivery: 'link' | 'email', groups: string[]) => {
      await page.getByRole('button', { name: 'Invite', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Invite a person' });
      await dialog.getByLabel('Username', { exact: true }).fill(username);
      await dialog.getByLabel(/^E-mail/).fill(email);
      await dialog.getByLabel('Send the invitation').selectOption(delivery);
      for (const g of groups) await dialog.getByLabel(g, { exact: true }).check();
      await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      const ready = page.getByRole('dialog', { name: 'Invitation ready' });
      const link = await ready.getByLabel('Invitation link').inputValue();
      await ready.getByRole('button', { name: /copied|close/i }).first().click();
      return link;
    };
    await invite(DANA, 'dana@home.test', 'email', ['family']);
    const eliLink = await invite(ELI, 'eli@home.test', 'link', ['family', 'admins']);
    expect(eliLink.startsWith(`${s.portalURL}/`), `eli's link ${eliLink} is not on the portal`).toBeTruthy();
    await page.getByText(DANA, { exact: true }).first().waitFor();
    await shot(page, 'acceptance-people-invited-desktop');
    s.eli.link = eliLink;
  });

  test('the admin protects A for family and B for admins, with /admin asking for a second factor', async ({ page, stack }) => {
    test.skip(!stack, 'needs a Traefik binary');
    const s = stack!;
    const protect = async (id: string, group: string) => {
      await page.goto(`/services/${id}/security`);
      await page.getByRole('heading', { name: 'People and groups', exact: true }).waitFor();
      await page.getByRole('switch', { name: /Require a person's sign-in/ }).click({ force: true });
      const groups = page.getByRole('combobox', { name: 'Allowed groups' });
      await groups.fill(group);
      await groups.press('Enter');
      await saveProtection(page);
      await page.getByText('Protection saved').waitFor();
    };
    await protect(s.services.a, 'family');
    await protect(s.services.b, 'admins');
    await shot(page, 'acceptance-service-people-protection-desktop');
    const rules = await page.request.put(`/api/services/${s.services.b}/access`, {
      data: {
        rules: [
          { action: 'allow', paths: [{ type: 'prefix', value: '/admin' }], groups: ['admins'], secondFactor: true },
          { action: 'deny', paths: [{ type: 'prefix', value: '/admin' }] },
        ],
        confirmPublic: true,
      },
    });
    expect(rules.status(), await rules.text()).toBe(200);
  });

  test('dana opens her e-mailed invitation and sets up a passkey only', async ({ stack }) => {
    test.skip(!stack, 'needs a Traefik binary');
    const s = stack!;
    const mail = await eventually(() => s.smtp.mails.find((m) => m.to.includes('dana@home.test')), { timeoutMs: 10000, intervalMs: 100 });
    const link = /https?:\/\/auth\.localhost:\d+\/invite\/[A-Za-z0-9_-]+/.exec(mailText(mail!))?.[0];
    expect(link, `no invitation link in ${mail?.data.slice(0, 400)}`).toBeTruthy();
    const p = await personPage(s, DANA);
    await p.goto(link!);
    await p.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await p.getByLabel(/Also set up a passkey/).check();
    await shot(p, 'acceptance-invitation-passkey-desktop');
    await p.getByRole('button', { name: 'Create my account' }).click();
    await p.getByRole('heading', { name: 'You are all set' }).waitFor();
  });

  test('eli opens his link, chooses a password, and adds an authenticator app on his account', async ({ stack }) => {
    test.skip(!stack, 'needs a Traefik binary');
    const s = stack!;
    const p = await personPage(s, ELI);
    await p.goto(s.eli.link!);
    await p.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await p.getByLabel('Password', { exact: true }).fill(ELI_PASSWORD);
    await p.getByLabel('Type the password again').fill(ELI_PASSWORD);
    await p.getByRole('button', { name: 'Create my account' }).click();
    await p.getByRole('heading', { name: 'You are all set' }).waitFor();
    await p.getByRole('link', { name: 'Sign in' }).click();
    await p.getByLabel('Username', { exact: true }).fill(ELI);
    await p.getByLabel('Password', { exact: true }).fill(ELI_PASSWORD);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
    await p.getByRole('heading', { name: 'Your services' }).waitFor();
    await p.goto(`${s.portalURL}/account`);
    await p.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = await p.getByLabel('Key to type into the app', { exact: true }).inputValue();
    const step = stepNow();
    await p.getByLabel('6-digit code from the app', { exact: true }).fill(totp(secret, step));
    await p.getByRole('button', { name: 'Finish set-up' }).click();
    await p.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').nth(9).waitFor();
    await p.getByRole('button', { name: 'I have saved them' }).click();
    s.eli = { ...s.eli, secret, step };
    // Signing out everywhere: the next sign-in is with the password and the app's code.
    await p.getByRole('banner').getByRole('button', { name: 'Sign out everywhere' }).click();
    await p.waitForURL(/\/login/);
  });

  test('dana signs in once with her passkey: A opens, B is refused, the launcher lists A only', async ({ stack }) => {
    test.skip(!stack, 'needs a Traefik binary');
    const s = stack!;
    const p = await personPage(s, DANA);
    // Traefik picks the protections up within its poll interval.
    await eventually(async () => {
      await p.goto(`https://${A}/album?id=7`);
      return new URL(p.url()).origin === s.portalURL;
    });
    await p.getByRole('button', { name: 'Use a passkey' }).click();
    await p.getByText('hello from the wiki upstream').waitFor();
    expect(p.url()).toBe(`https://${A}/album?id=7`);
    await refused(p, `https://${B}/`, DANA);
    await shot(p, 'acceptance-refused-desktop', { fullPage: false });
    expect(await launcherServices(p, s)).toEqual(['Photos']);
    await shot(p, 'acceptance-launcher-dana-desktop');
  });

  test('eli signs in once with his password and code: B, its /admin and A open without another sign-in', async ({ stack }) => {
    test.skip(!stack, 'needs a Traefik binary');
    const s = stack!;
    const p = await personPage(s, ELI);
    await askedToSignIn(p, s, `https://${B}/admin/users`);
    await p.getByLabel('Username', { exact: true }).fill(ELI);
    await p.getByLabel('Password', { exact: true }).fill(ELI_PASSWORD);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
    const step = Math.max(stepNow(), (s.eli.step ?? 0) + 1);
    await p.getByLabel('Code from your authenticator app').fill(totp(s.eli.secret!, step));
    await p.getByRole('button', { name: 'Continue' }).click();
    await p.getByText('hello from the wiki upstream').waitFor();
    expect(p.url()).toBe(`https://${B}/admin/users`);
    await reaches(p, `https://${B}/`);
    await reaches(p, `https://${A}/`);
    expect((await launcherServices(p, s)).sort()).toEqual(['Admin tools', 'Photos']);
  });

  test('eli signs out everywhere on the portal: A and B send him to sign in again', async ({ stack }) => {
    test.skip(!stack, 'needs a Traefik binary');
    const s = stack!;
    const p = await personPage(s, ELI);
    await p.goto(`${s.portalURL}/`);
    await p.getByRole('button', { name: 'Sign out everywhere' }).click();
    await p.waitForURL(/\/login/);
    await askedToSignIn(p, s, `https://${A}/`);
    await askedToSignIn(p, s, `https://${B}/`);
  });

  test('the admin disables dana on the People page: her next request is refused', async ({ page, stack }) => {
    test.skip(!stack, 'needs a Traefik binary');
    const s = stack!;
    allowHttp(['GET', /^\/api\/admin\/me$/, 401]);
    const p = await personPage(s, DANA);
    await reaches(p, `https://${A}/`);
    await page.goto('/people');
    await page.getByRole('button', { name: `Disable ${DANA}`, exact: true }).click();
    const confirm = page.getByRole('dialog', { name: new RegExp(`Disable ${DANA}`) });
    if (await confirm.isVisible().catch(() => false)) await confirm.getByRole('button', { name: /^Disable/ }).click();
    await page.getByRole('row', { name: new RegExp(DANA) }).getByText(/Disabled/).waitFor();
    await p.goto(`https://${A}/`);
    await expect(p.getByText('hello from the wiki upstream')).toHaveCount(0);
    expect(new URL(p.url()).host).not.toBe(A);
  });
});
