// Every page of the panel and of the sign-in portal, on a desk (1440x900) and on a phone
// (390x844), in the light and the dark theme, for each shipped locale, on a panel of its own with
// a little of everything in it (a domain, the service "Grafana", a credential set, a person, a
// group) and a real Traefik when a binary is at hand. For each page: a full-page screenshot under
// test-results/screens/ (not committed), no horizontal overflow
// (document.scrollingElement.scrollWidth <= innerWidth), no JavaScript error (the judgeErrors
// fixture fails a test whose pages logged one or met an undeclared HTTP error), and no
// untranslated text (the hook below). Run it alone:
//   make build && cd frontend && npx playwright test screens
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { freePort } from './support/harness';
import { judge } from './support/judge';
import { PASSWORD, USER } from './support/names';
import { openPage } from './support/page';
import { allowHttp, test as base, expect } from './support/test';

/**
 * The locales every page is shot in, as the browser's language (Accept-Language and
 * navigator.language), which the interface follows when no language was chosen with its switch.
 */
const locales = ['en', 'de'] as const;
type Locale = (typeof locales)[number];

const sizes = {
  desk: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
const themes = ['light', 'dark'] as const;

const screens = path.join(path.dirname(fileURLToPath(import.meta.url)), '../test-results/screens');

const PERSON = 'casey';

/** Every key of the English texts ("ago.justNow"), plural forms by their base key. */
function translationKeys(): Set<string> {
  const keys = new Set<string>();
  const walk = (prefix: string, v: unknown) => {
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(prefix ? `${prefix}.${k}` : k, x);
      return;
    }
    keys.add(prefix.replace(/_(zero|one|two|few|many|other)$/, ''));
  };
  for (const file of readdirSync(localesDir).filter((f) => f.endsWith('.json'))) {
    const ns = file.slice(0, -'.json'.length);
    const texts: unknown = JSON.parse(readFileSync(path.join(localesDir, file), 'utf8'));
    walk('', texts);
    walk(ns, texts); // "ns:key" reads as "ns" then the key's path once ":" is a "."
  }
  return keys;
}
const localesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/locales/en');
const keys = translationKeys();

/**
 * The untranslated-text check: answers what the page shows that is not in its locale. A key
 * shown in place of its text (i18next shows the key when a text is missing, "ago.justNow" or
 * "services:list.title") is untranslated in every locale, and a page whose document language
 * is not the locale was not translated at all. English strings left in a translated page are
 * the unit test's to find (src/lib/i18n.test.ts), which reads the components' source.
 */
async function untranslated(page: Page, locale: Locale): Promise<string[]> {
  const { lang, texts } = await page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = n.textContent?.trim();
      if (t && /^[a-z][\w-]*([.:][\w-]+)+$/.test(t)) out.push(t);
    }
    return { lang: document.documentElement.lang, texts: out };
  });
  const found = texts.filter((t) => keys.has(t.replace(':', '.')));
  if (lang && lang.split('-')[0] !== locale) found.push(`the page is in "${lang}", not "${locale}"`);
  return found;
}

/** What sticks out of the viewport: null when nothing, else the excess and the outermost culprits. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const scroller = document.scrollingElement ?? document.documentElement;
    const excess = scroller.scrollWidth - window.innerWidth;
    if (excess <= 0) return null;
    // The innermost elements that stick out: what to fix, rather than every box around it.
    const out = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth);
    const culprits = out
      .filter((el) => !out.some((o) => o !== el && el.contains(o)))
      .slice(0, 4)
      .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${[...el.classList].map((c) => `.${c}`).join('')}`);
    return { excess, culprits };
  });
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** Buttons in a row of fields (.input-row) that share a line with an input but not its top edge. */
function misaligned(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.input-row > .btn')].flatMap((b) => {
      const input = b.parentElement?.querySelector('.field .input, .field .select');
      if (!input) return [];
      const bt = b.getBoundingClientRect();
      const it = input.getBoundingClientRect();
      if (bt.height === 0 || it.height === 0 || bt.top > it.bottom) return []; // hidden, or wrapped below
      return Math.abs(bt.top - it.top) > 2 ? [`"${b.textContent?.trim()}" ${Math.round(bt.top - it.top)} px off`] : [];
    }),
  );
}

interface Seeded {
  panelURL: string;
  portalURL: string;
  serviceId: string;
  /** The administrator's sign-in, on the panel's host. */
  admin: StorageState;
  /** A person without a panel role, signed in on the portal's host. */
  person: StorageState;
}

/** A page to visit: its name, its path, and what to open on it before the screenshot. */
type Screen = [name: string, path: string, open?: (page: Page) => Promise<void>];

/** The pages of the panel; the service's are Grafana's. */
function panelPages(serviceId: string): Screen[] {
  return [
    ['dashboard', '/'],
    ['services', '/services'],
    ['service-new', '/services/new'],
    ['service-edit', `/services/${serviceId}`],
    ['service-config', `/services/${serviceId}/config`],
    ['service-security', `/services/${serviceId}/security`],
    ['service-access', `/services/${serviceId}/access`],
    ['service-traffic', `/services/${serviceId}/traffic`],
    ['containers', '/containers'],
    ['domains', '/domains'],
    ['certificates', '/certificates'],
    ['credential-sets', '/credential-sets'],
    ['sessions', '/sessions'],
    ['access-rules', '/access-rules'],
    ['access-log', '/access-log'],
    ['machine-tokens', '/machine-tokens'],
    ['apps', '/apps'],
    ['people', '/people'],
    ['groups', '/groups'],
    ['api-tokens', '/api-tokens'],
    ['account', '/account'],
    ['audit', '/audit'],
    // An entry's changes: field, before and after, on a phone too.
    // The entry's "Changes" button, in whichever language the page is.
    ['audit-changes', '/audit?resourceType=services&action=create', (p) => p.getByRole('button', { name: /^(Changes|Änderungen|Modifications)/ }).first().click()],
    ['notifications', '/notifications'],
    ['backups', '/backups'],
    ['transfer', '/transfer'],
    ['managed', '/managed'],
    ['runtime', '/runtime'],
    ['metrics', '/traefik-metrics'],
    ['conflicts', '/conflicts'],
    ['system', '/system'],
    ['settings', '/settings'],
    ['not-found', '/no-such-page'],
  ];
}

/** Pages for someone not signed in, on the panel's host. */
const publicPages: Screen[] = [
  ['login', '/login'],
  ['forgot-password', '/forgot-password'],
  ['register', '/register'],
  ['invite-unknown', '/invite/not-a-real-invitation-token'],
  ['reset-unknown', '/reset-password/not-a-real-reset-token'],
];

/** The portal's pages for a person signed in there, and its sign-in page. */
const portalPages: Screen[] = [
  ['portal-launcher', '/'],
  ['portal-account', '/account'],
];

/** Asks the panel's API from a signed-in page; answers the JSON. */
async function api<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  const res = await page.evaluate(
    async ([m, u, b]) => {
      const r = await fetch(u as string, { method: m as string, headers: { 'Content-Type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
      return { status: r.status, text: await r.text() };
    },
    [method, url, body] as const,
  );
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return (res.text ? JSON.parse(res.text) : null) as T;
}

const test = base.extend<object, { seeded: Seeded }>({
  seeded: [
    async ({ harness, browser }, use) => {
      const port = await freePort();
      const panelURL = `http://localhost:${port}`;
      const portalURL = `http://auth.localhost:${port}`;
      const upstream = await harness.startUpstream();
      const traefik = await harness.startTraefik(port);
      const env: Record<string, string> = { PANEL_PUBLIC_URL: panelURL, PANEL_PORTAL_URL: portalURL };
      if (traefik) Object.assign(env, { PANEL_PROXY_API_URL: traefik.apiURL, PANEL_INTERNAL_URL: `http://127.0.0.1:${port}` });
      const panel = await harness.startPanel({ port, env, dirPrefix: 'gatehouse-e2e-screens-' });
      await panel.ready();

      const { context: admin, page } = await openPage(browser, { baseURL: panelURL });
      await page.goto('/setup');
      await page.getByLabel('Username', { exact: true }).fill(USER);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Create administrator' }).click();
      await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      await page.goto('/settings');
      await page.getByLabel('Portal host').fill('auth.localhost');
      await page.getByLabel('Name', { exact: true }).fill('Family');
      await page.getByRole('button', { name: 'Save portal' }).click();
      await page.getByText('Sign-in portal saved').waitFor();

      const domain = await api<{ id: string }>(page, 'POST', '/api/domains', { domain: 'example.test', isDefault: true, https: { redirect: true, hsts: { maxAge: 0 } } });
      const service = await api<{ id: string }>(page, 'POST', '/api/services', {
        name: 'Grafana',
        domainId: domain.id,
        hostnames: [{ type: 'subdomain', value: 'grafana' }],
        targets: [{ scheme: 'http', host: '127.0.0.1', port: upstream.port }],
      });
      // A second service with what makes a row wide: a long name, several host names and targets.
      await api(page, 'POST', '/api/services', {
        name: 'Photo library of the whole family, 2019 to today',
        domainId: domain.id,
        hostnames: [
          { type: 'subdomain', value: 'photos' },
          { type: 'subdomain', value: 'a-rather-long-subdomain-name-for-old-bookmarks' },
          { type: 'custom', value: 'photos.family-name-that-is-long.example.org' },
        ],
        targets: [
          { scheme: 'http', host: '192.168.100.200', port: 2342 },
          { scheme: 'https', host: 'photoprism-replica.internal.lan', port: 8443 },
        ],
      });
      await api(page, 'POST', '/api/credential-sets', { name: 'Family', users: [{ username: 'alice', password: 'a-long-password-1' }] });
      const person = await api<{ id: string }>(page, 'POST', '/api/people', { username: PERSON, password: PASSWORD, panelRole: 'none', displayName: 'Casey Jones' });
      const group = await api<{ id: string }>(page, 'POST', '/api/groups', { name: 'Household', description: 'Everyone at home' });
      await api(page, 'POST', `/api/groups/${group.id}/members`, { personId: person.id });
      const adminState = await admin.storageState();
      await admin.close();

      // The person signs in on the portal.
      const { context: personCtx, page: pp } = await openPage(browser, { baseURL: portalURL });
      allowHttp(['GET', /^\/api\/admin\/me$/, 401]);
      await pp.goto('/login');
      await pp.getByLabel('Username', { exact: true }).fill(PERSON);
      await pp.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await pp.getByRole('button', { name: 'Sign in', exact: true }).click();
      await pp.waitForURL((u) => !u.pathname.startsWith('/login'));
      const personState = await personCtx.storageState();
      await personCtx.close();

      await use({ panelURL, portalURL, serviceId: service.id, admin: adminState, person: personState });
    },
    { scope: 'worker' },
  ],
});

/**
 * Visits each page in a browser of the locale, size and theme (signed in as state says, or not
 * at all), shoots it and checks it; a failing page does not stop the others (soft assertions),
 * so one run lists every overflow.
 */
async function tour(
  browser: Browser,
  state: StorageState | undefined,
  origin: string,
  pages: Screen[],
  size: keyof typeof sizes,
  theme: (typeof themes)[number],
  locale: Locale,
) {
  // The sign-in's saved state carries the language the setup page remembered: left out, so
  // the browser's locale decides.
  const storageState = state && {
    ...state,
    origins: state.origins.map((o) => ({ ...o, localStorage: o.localStorage.filter((e) => e.name !== 'gatehouse.language') })),
  };
  const ctx = await browser.newContext({ viewport: sizes[size], colorScheme: theme, locale, storageState });
  // The panel remembers a language per browser (localStorage); this browser's is the locale.
  await ctx.addInitScript((lng) => localStorage.setItem('gatehouse.language', lng), locale);
  const page = await ctx.newPage();
  page.setDefaultTimeout(10_000);
  judge.watch(page);
  try {
    for (const [name, url, open] of pages) {
      await page.goto(origin + url);
      // Every page names itself with one h1; one that does not is a finding, not the end of the tour.
      const titled = await page
        .locator('h1')
        .first()
        .waitFor()
        .then(() => true)
        .catch(() => false);
      expect.soft(titled, `${name} (${url}) shows no h1 heading`).toBeTruthy();
      if (open) await open(page);
      await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
      await page.waitForTimeout(200);
      const shown = await page.evaluate(() => document.documentElement.dataset.theme ?? '');
      expect.soft(shown === '' || shown === theme, `${name}: theme ${shown}, want ${theme}`).toBeTruthy();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(screens, locale, `${name}-${size}-${theme}.png`), fullPage: true });
      const over = await overflow(page);
      expect.soft(over, `${name} (${url}) overflows at ${size} width in ${theme}: ${JSON.stringify(over)}`).toBeNull();
      const askew = await misaligned(page);
      expect.soft(askew, `${name}: buttons beside inputs but not on their line at ${size} width`).toEqual([]);
      const missing = await untranslated(page, locale);
      expect.soft(missing, `${name}: untranslated in ${locale}`).toEqual([]);
    }
  } finally {
    await ctx.close();
  }
}

// Not serial: a page with a finding fails its own test and the others still run.
for (const locale of locales) {
  for (const size of Object.keys(sizes) as (keyof typeof sizes)[]) {
    for (const theme of themes) {
      test.describe(`screens ${locale} ${size} ${theme}`, () => {
        test(`panel pages`, async ({ seeded, browser }) => {
          await tour(browser, seeded.admin, seeded.panelURL, panelPages(seeded.serviceId), size, theme, locale);
        });

        test(`public and portal pages`, async ({ seeded, browser }) => {
          // A visitor's first look asks who is signed in (401); unknown links answer 404 or 410.
          allowHttp(['GET', /^\/api\/admin\/me$/, 401], ['POST', /^\/api\/(invitations\/preview|password-reset\/check)$/, 404], ['POST', /^\/api\/(invitations\/preview|password-reset\/check)$/, 410], ['GET', /^\/api\/portal\/services$/, 404]);
          await tour(browser, undefined, seeded.panelURL, publicPages, size, theme, locale);
          await tour(browser, seeded.person, seeded.portalURL, portalPages, size, theme, locale);
        });
      });
    }
  }
}
