// End-to-end suite: starts the real panel binary on a free port with an empty data dir,
// drives Debian's Chromium through playwright-core, and saves screenshots of every page
// at desktop and phone widths into e2e/artifacts/. Any console error fails the run.
// Prints "N passed, N failed" last and exits non-zero on failure.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const bin = process.env.GATEHOUSE_BIN ?? path.join(repo, 'backend/bin/gatehouse');
const artifacts = path.join(here, 'artifacts');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const USER = 'admin';
const PASSWORD = 'correct-horse-battery';
const DOMAIN = 'example.test';

const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
};

let passed = 0;
let failed = 0;
const failures = [];

function log(...args) {
  console.log(...args);
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base, proc, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`panel exited with code ${proc.exitCode}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error('panel did not become healthy');
}

function expect(cond, message) {
  if (!cond) throw new Error(message);
}

// ---------------------------------------------------------------------------------------

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-e2e-'));
const dataDirs = [dataDir];
rmSync(artifacts, { recursive: true, force: true });
mkdirSync(artifacts, { recursive: true });

const serverLog = [];
const panels = [];
function startPanel(listenPort, dir, extraEnv = {}) {
  const proc = spawn(bin, [], {
    env: { ...process.env, PANEL_LISTEN: `127.0.0.1:${listenPort}`, PANEL_DATA_DIR: dir, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.on('data', (d) => serverLog.push(d.toString()));
  proc.stderr.on('data', (d) => serverLog.push(d.toString()));
  panels.push(proc);
  return proc;
}
// ---- Optional real Traefik: when a binary is at hand (TRAEFIK_BIN, or the one the backend's
// e2e builds into the cache), the panel is its HTTP provider and reads its API, so the runtime
// pages show live data. Without one, those pages show their "not connected" state.
function findTraefik() {
  if (process.env.TRAEFIK_BIN) return process.env.TRAEFIK_BIN;
  const cache = process.env.GATEHOUSE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'gatehouse');
  const bin = path.join(cache, 'traefik', process.env.TRAEFIK_VERSION ?? 'v3.6.12', 'traefik');
  return existsSync(bin) ? bin : null;
}
const traefikBin = findTraefik();
const traefik = traefikBin ? { web: await freePort(), websecure: await freePort(), api: await freePort() } : null;
let traefikProc;

// A tiny upstream for the service, so Traefik has a healthy backend and real traffic.
const upstream = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  res.end('hello from the wiki upstream\n');
});
await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
const upstreamPort = upstream.address().port;

if (traefik) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-e2e-traefik-'));
  dataDirs.push(dir);
  const cfg = `entryPoints:
  web: { address: "127.0.0.1:${traefik.web}" }
  websecure: { address: "127.0.0.1:${traefik.websecure}", http: { tls: {} } }
  traefik: { address: "127.0.0.1:${traefik.api}" }
api: { insecure: true, dashboard: false }
ping: { entryPoint: traefik }
metrics:
  prometheus: { entryPoint: traefik, addEntryPointsLabels: true, addRoutersLabels: true, addServicesLabels: true }
providers:
  http: { endpoint: "http://127.0.0.1:${port}/api/proxy/config", pollInterval: "1s", pollTimeout: "5s" }
log: { level: ERROR, filePath: "${path.join(dir, 'traefik.log')}" }
global: { checkNewVersion: false, sendAnonymousUsage: false }
`;
  writeFileSync(path.join(dir, 'traefik.yml'), cfg);
  traefikProc = spawn(traefikBin, [`--configFile=${path.join(dir, 'traefik.yml')}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  traefikProc.stdout.on('data', (d) => serverLog.push(`[traefik] ${d}`));
  traefikProc.stderr.on('data', (d) => serverLog.push(`[traefik] ${d}`));
  panels.push(traefikProc);
}

// Never leave a panel or Traefik behind, even when the run is interrupted.
process.on('exit', () => {
  for (const p of panels) if (p.exitCode === null) p.kill('SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => process.exit(130));

const panel = startPanel(port, dataDir, traefik ? { PANEL_PROXY_API_URL: `http://127.0.0.1:${traefik.api}` } : {});

/** Sends requests through Traefik's websecure entrypoint as a browser would. */
async function throughTraefik(host, count) {
  let ok = 0;
  for (let i = 0; i < count; i++) {
    const status = await new Promise((resolve) => {
      const req = https.request(
        { host: '127.0.0.1', port: traefik.websecure, path: '/', servername: host, headers: { Host: host }, rejectUnauthorized: false, timeout: 3000 },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        },
      );
      req.on('error', () => resolve(0));
      req.on('timeout', () => req.destroy());
      req.end();
    });
    if (status === 200) ok++;
  }
  return ok;
}

let browser;
const consoleErrors = [];
const consoleWarnings = new Set();
// HTTP errors a step provokes on purpose (e.g. a wrong password): [method, path regex, status].
let expectedHttpErrors = [];
const unexpectedHttp = [];

async function cleanup() {
  try {
    await browser?.close();
  } catch {
    /* ignore */
  }
  for (const p of panels) if (p.exitCode === null) p.kill('SIGTERM');
  upstream.close();
  writeFileSync(path.join(artifacts, 'panel.log'), serverLog.join(''));
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
}

function watch(page) {
  page.on('console', (msg) => {
    if (msg.type() === 'warning') consoleWarnings.add(msg.text().slice(0, 200));
    if (msg.type() !== 'error') return;
    const text = msg.text();
    // Chromium logs every non-2xx fetch as "Failed to load resource"; those are judged by
    // the response listener below against the step's expected errors.
    if (text.startsWith('Failed to load resource')) return;
    consoleErrors.push(`${page.url()}: ${text}`);
  });
  page.on('pageerror', (err) => consoleErrors.push(`${page.url()}: uncaught ${err.message}`));
  page.on('response', (res) => {
    if (res.status() < 400) return;
    const url = new URL(res.url());
    const method = res.request().method();
    const ok = expectedHttpErrors.some(([m, re, s]) => m === method && re.test(url.pathname) && s === res.status());
    if (!ok) unexpectedHttp.push(`${method} ${url.pathname}${url.search} → ${res.status()}`);
  });
}

async function step(name, fn) {
  const errsBefore = consoleErrors.length;
  const httpBefore = unexpectedHttp.length;
  const started = Date.now();
  try {
    await fn();
    const newErrors = [...consoleErrors.slice(errsBefore), ...unexpectedHttp.slice(httpBefore)];
    if (newErrors.length) throw new Error(`console/HTTP errors:\n    ${newErrors.join('\n    ')}`);
    passed++;
    log(`  ✓ ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failed++;
    failures.push(name);
    log(`  ✗ ${name}\n    ${String(err?.message ?? err).split('\n').join('\n    ')}`);
    try {
      await page?.screenshot({ path: path.join(artifacts, `FAILED-${name.replace(/\W+/g, '-')}.png`), fullPage: true });
    } catch {
      /* ignore */
    }
  } finally {
    expectedHttpErrors = [];
  }
}

async function navTo(name) {
  await page.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name, exact: true }).click();
}

async function settle(p = page) {
  await p.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
  // Let skeletons and toasts render.
  await p.waitForTimeout(250);
}

async function shot(name, p = page, { fullPage = true } = {}) {
  await settle(p);
  // Full-page captures of a scrolled page smear the sticky bars; start from the top.
  // Toasts are fixed to the viewport; on a tall full-page capture they land mid-page.
  const tall = await p.evaluate((full) => {
    window.scrollTo(0, 0);
    const isTall = full && document.documentElement.scrollHeight > window.innerHeight + 1;
    const t = document.querySelector('.toasts');
    if (isTall && t) t.style.visibility = 'hidden';
    return isTall;
  }, fullPage);
  await p.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage });
  if (tall) await p.evaluate(() => document.querySelector('.toasts')?.style.removeProperty('visibility'));
}

let page;
let context;
const state = { serviceId: '', sharedUrl: '' };

try {
  await waitForHealth(base, panel);
  log(`panel on ${base}, data in ${dataDir}`);
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  context = await browser.newContext({ viewport: viewports.desktop, colorScheme: 'light', baseURL: base });
  page = await context.newPage();
  page.setDefaultTimeout(8000);
  watch(page);

  await step('first run goes to setup and creates the administrator', async () => {
    await page.goto('/');
    await page.waitForURL('**/setup');
    await shot('setup-desktop');
    await page.getByLabel('Username', { exact: true }).fill(USER);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.waitForURL(`${base}/`);
  });

  await step('sign out returns to the sign-in page', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  });

  await step('a wrong password is refused with a message', async () => {
    expectedHttpErrors = [['POST', /^\/api\/admin\/login$/, 401]];
    await page.getByLabel('Username', { exact: true }).fill(USER);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The username or password is incorrect.').waitFor();
    await shot('login-error-desktop');
  });

  await step('sign in reaches the dashboard', async () => {
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  });

  await step('create a domain', async () => {
    await navTo('Domains');
    await page.getByRole('heading', { name: 'Domains', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add domain' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Domain', { exact: true }).fill(DOMAIN);
    await dialog.getByLabel('Display name', { exact: true }).fill('Lab');
    await shot('domain-form-desktop', page, { fullPage: false });
    await dialog.getByRole('button', { name: 'Add domain' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: new RegExp(DOMAIN) }).first().waitFor();
    await page.getByText('Default', { exact: true }).waitFor();
  });

  await step('service form validates and previews the rule', async () => {
    await navTo('Services');
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
    await shot('service-new-desktop');
  });

  await step('create the service and see its config preview', async () => {
    await page.getByRole('button', { name: 'Create service' }).click();
    await page.waitForURL(/\/services\/[^/]+\/config$/);
    state.serviceId = page.url().split('/').slice(-2)[0];
    await page.getByRole('heading', { name: 'Wiki', exact: true }).waitFor();
    const preview = page.getByTestId('config-preview');
    await preview.waitFor();
    const text = await preview.textContent();
    expect(text.includes(`wiki.${DOMAIN}`), 'config preview does not mention the hostname');
    expect(text.includes(`127.0.0.1:${upstreamPort}`), 'config preview does not mention the target');
    await shot('service-config-desktop');
  });

  if (traefik) {
    await step('traffic flows through the real Traefik', async () => {
      // Traefik polls the panel every second; wait until the router is live.
      const deadline = Date.now() + 15000;
      let ok = 0;
      while (Date.now() < deadline && ok === 0) {
        ok = await throughTraefik(`wiki.${DOMAIN}`, 1);
        if (!ok) await new Promise((r) => setTimeout(r, 500));
      }
      expect(ok === 1, 'Traefik never routed wiki through the panel');
      const more = await throughTraefik(`wiki.${DOMAIN}`, 40);
      expect(more === 40, `only ${more}/40 requests succeeded`);
      // The panel caches Traefik's answers briefly; wait until its view has the router.
      const until = Date.now() + 15000;
      let seen = false;
      while (!seen && Date.now() < until) {
        const body = await (await page.request.get('/api/proxy/runtime')).json();
        seen = (body.routers ?? []).some((r) => r.serviceId === state.serviceId);
        if (!seen) await new Promise((r) => setTimeout(r, 1000));
      }
      expect(seen, "the panel's runtime view never showed the service's router");
      await page.goto('/runtime');
      await page.getByRole('link', { name: 'Wiki' }).first().waitFor();
      await shot('runtime-live-desktop');
      await page.setViewportSize(viewports.phone);
      await shot('runtime-live-phone');
      await page.setViewportSize(viewports.desktop);
    });
  } else {
    log('  - no Traefik binary found: runtime pages are checked in their "not connected" state');
  }

  await step('a taken hostname is flagged while typing', async () => {
    await page.goto('/services/new');
    await page.getByRole('option', { name: /example\.test/ }).first().waitFor({ state: 'attached' });
    await page.getByLabel('Hostname 1', { exact: true }).fill('wiki');
    await page.getByText(/already belongs to Wiki/).waitFor();
    await shot('service-conflict-desktop');
    // Leaving a dirty form in the app asks first; cancelling stays, discarding leaves.
    await navTo('Services');
    const guard = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await guard.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'New service', exact: true }).waitFor();
    await navTo('Services');
    await guard.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByRole('heading', { name: 'Services', exact: true }).waitFor();
  });

  await step('services list shows the service and toggles it', async () => {
    await page.goto('/services');
    await page.getByRole('link', { name: 'Wiki', exact: true }).first().waitFor();
    await page.getByText(`wiki.${DOMAIN}`).first().waitFor();
    await page.getByRole('button', { name: 'Check backends' }).click();
    await page.getByText('1/1 reachable').first().waitFor();
    await shot('services-desktop');
    const toggle = page.getByRole('switch', { name: 'Disable Wiki' }).first();
    await toggle.click({ force: true });
    await page.getByText('Wiki disabled').waitFor();
    await page.getByRole('switch', { name: 'Enable Wiki' }).first().click({ force: true });
    await page.getByText('Wiki enabled').waitFor();
  });

  await step('edit the service', async () => {
    await page.goto(`/services/${state.serviceId}`);
    await page.getByLabel('Name', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name', { exact: true }).fill('X-Env');
    await page.getByLabel('Header 1 value', { exact: true }).fill('lab');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Service saved').waitFor();
    await shot('service-edit-desktop');
  });

  await step('create a shared link with a QR code', async () => {
    await page.goto(`/services/${state.serviceId}/security`);
    await page.getByRole('heading', { name: 'Shared links', exact: true }).waitFor();
    await page.getByRole('switch', { name: /Accept shared links/ }).click({ force: true });
    await page.getByRole('switch', { name: 'Shared links are accepted' }).waitFor();
    await page.getByRole('button', { name: 'New link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New shared link' });
    await dialog.getByLabel('Note', { exact: true }).fill('for Bob');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const ready = page.getByRole('dialog', { name: 'Link ready' });
    await ready.getByRole('img', { name: 'QR code of the shared link' }).waitFor();
    state.sharedUrl = await ready.getByTestId('shared-link-url').inputValue();
    expect(/^https?:\/\//.test(state.sharedUrl), `shared link is not a URL: ${state.sharedUrl}`);
    await shot('shared-link-desktop', page, { fullPage: false });
    await ready.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: /for Bob/ }).first().waitFor();
    await page.getByText('Active', { exact: true }).waitFor();
  });

  await step('open the shared link through forward auth and see the session', async () => {
    // Walk the forward-auth flow as Traefik would: each hop is sent to /api/auth/verify
    // with the X-Forwarded-* headers of the original request, carrying cookies along.
    const link = new URL(state.sharedUrl);
    const jar = new Map();
    let url = link;
    let status = 0;
    for (let hop = 0; hop < 6; hop++) {
      const res = await fetch(`${base}/api/auth/verify?service=${encodeURIComponent(state.serviceId)}`, {
        redirect: 'manual',
        headers: {
          'X-Forwarded-Method': 'GET',
          'X-Forwarded-Proto': url.protocol.replace(':', ''),
          'X-Forwarded-Host': url.host,
          'X-Forwarded-Uri': url.pathname + url.search,
          'X-Forwarded-For': '203.0.113.7',
          Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        },
      });
      status = res.status;
      for (const c of res.headers.getSetCookie?.() ?? []) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
      if (status >= 300 && status < 400 && res.headers.get('location')) {
        const next = new URL(res.headers.get('location'), url);
        if (next.host === link.host || next.pathname.startsWith('/')) {
          url = next;
          continue;
        }
      }
      break;
    }
    expect(jar.size > 0, `forward auth set no cookie (last status ${status})`);
    await page.goto('/sessions');
    await page.getByRole('heading', { name: 'Sessions', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Wiki' }).first().waitFor();
    await page.getByText('Shared link', { exact: true }).first().waitFor();
    await shot('sessions-desktop');
  });

  await step('end the session', async () => {
    await page.getByRole('button', { name: /^End session of/ }).first().click();
    await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End session' }).click();
    await page.getByText('No active sessions').waitFor();
  });

  await step('change settings and see them persist', async () => {
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

  await step('credential sets: create one', async () => {
    await page.goto('/credential-sets');
    await page.getByRole('button', { name: /New set|Create a set/ }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('Family');
    await dialog.getByLabel('User 1 username', { exact: true }).fill('alice');
    await dialog.getByLabel('User 1 password', { exact: true }).fill('wonderland-2026');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Family', exact: true }).waitFor();
  });

  await step('configure single sign-on with a write-only secret', async () => {
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Enable single sign-on' }).check({ force: true });
    await page.getByLabel('Issuer URL', { exact: true }).fill('https://id.example.test');
    await page.getByLabel('Client ID', { exact: true }).fill('gatehouse');
    await page.getByLabel(/^Client secret/).fill('very-secret-value');
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await page.getByText('Single sign-on saved').waitFor();
    await page.reload();
    await page.getByText('set', { exact: true }).first().waitFor();
    const secret = await page.getByLabel(/^Client secret/).inputValue();
    expect(secret === '', 'the client secret was shown again');
    await shot('settings-sso-desktop');
  });

  await step('protect the service with basic auth', async () => {
    await page.goto(`/services/${state.serviceId}/security`);
    await page.getByRole('switch', { name: 'Require basic auth' }).check({ force: true });
    await page.getByLabel('Credential set', { exact: true }).selectOption({ label: 'Family (1 user)' });
    await page.getByRole('button', { name: 'Save basic auth' }).click();
    await page.getByText('Access settings saved').waitFor();
    await page.goto('/services');
    await page.getByTitle('Basic auth: on').first().waitFor();
  });

  // ---- Screenshot tour: every page, desktop and phone, light and one dark pass ----
  const pages = [
    ['dashboard', '/', 'Dashboard'],
    ['services', '/services', 'Services'],
    ['service-new', '/services/new', 'New service'],
    ['service-edit', `/services/${state.serviceId}`, 'Wiki'],
    ['service-config', `/services/${state.serviceId}/config`, 'Wiki'],
    ['service-security', `/services/${state.serviceId}/security`, 'Wiki'],
    ['domains', '/domains', 'Domains'],
    ['certificates', '/certificates', 'Certificates'],
    ['credential-sets', '/credential-sets', 'Credential sets'],
    ['sessions', '/sessions', 'Sessions'],
    ['runtime', '/runtime', 'Runtime'],
    ['metrics', '/metrics', 'Metrics'],
    ['conflicts', '/conflicts', 'Conflicts'],
    ['settings', '/settings', 'Settings'],
  ];
  for (const [vpName, vp] of Object.entries(viewports)) {
    await step(`screenshots at ${vpName} width`, async () => {
      await page.setViewportSize(vp);
      for (const [name, url, heading] of pages) {
        await page.goto(url);
        await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
        await shot(`${name}-${vpName}`);
        const overflow = await page.evaluate(() => {
          const excess = document.documentElement.scrollWidth - window.innerWidth;
          if (excess <= 1) return null;
          // Name the outermost elements that stick out, to make the failure actionable.
          const culprits = [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
            .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= window.innerWidth + 1)
            .slice(0, 3)
            .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
          return { excess, culprits };
        });
        expect(!overflow, `${name} overflows horizontally at ${vpName} width: ${JSON.stringify(overflow)}`);
      }
    });
  }

  await step('dark theme and phone navigation', async () => {
    await page.setViewportSize(viewports.desktop);
    await page.goto('/services');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    const theme = await page.evaluate(() => document.documentElement.dataset.theme);
    expect(theme === 'dark', `theme is ${theme}`);
    await shot('services-dark-desktop');
    await page.goto(`/services/${state.serviceId}`);
    await shot('service-edit-dark-desktop');
    await page.setViewportSize(viewports.phone);
    await page.goto('/');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await navTo('Sessions');
    await page.getByRole('heading', { name: 'Sessions', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await shot('nav-open-dark-phone');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
  });

  // ---- Managed mode: a second panel that manages Traefik's static configuration ----
  await step('managed mode: DNS provider, credentials and restart status', async () => {
    const mPort = await freePort();
    const mBase = `http://127.0.0.1:${mPort}`;
    const mDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-e2e-managed-'));
    dataDirs.push(mDir);
    const proc = startPanel(mPort, mDir, { PANEL_MANAGED: 'true', PANEL_WRAPPER_TOKEN: 'e2e-wrapper-token-0123456789abcdef' });
    await waitForHealth(mBase, proc);
    const mContext = await browser.newContext({ viewport: viewports.desktop, colorScheme: 'light', baseURL: mBase });
    const mPage = await mContext.newPage();
    mPage.setDefaultTimeout(8000);
    watch(mPage);
    await mPage.goto('/setup');
    await mPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await mPage.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await mPage.getByRole('button', { name: 'Create administrator' }).click();
    await mPage.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await mPage.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: 'Managed Traefik', exact: true }).click();
    await mPage.getByRole('heading', { name: 'Managed Traefik', exact: true }).waitFor();
    await mPage.getByText('Restart pending').first().waitFor();
    await mPage.getByLabel('Challenge', { exact: true }).selectOption('dns');
    await mPage.getByLabel('DNS provider', { exact: true }).selectOption('cloudflare');
    await mPage.getByText('CF_DNS_API_TOKEN: missing').waitFor();
    await mPage.getByLabel('ACME e-mail', { exact: true }).fill('admin@example.test');
    await mPage.getByRole('button', { name: 'Save static configuration' }).click();
    await mPage.getByText('Static configuration saved').waitFor();
    const secret = mPage.getByLabel('CF_DNS_API_TOKEN', { exact: false });
    await secret.first().fill('e2e-secret-token');
    await mPage.getByRole('button', { name: 'Save credentials' }).click();
    await mPage.getByText('Credentials saved').waitFor();
    await mPage.getByText('CF_DNS_API_TOKEN: set').waitFor();
    const value = await secret.first().inputValue();
    expect(value === '', 'a saved credential is shown again');
    await shot('managed-desktop', mPage);
    await mPage.setViewportSize(viewports.phone);
    await shot('managed-phone', mPage);
    const overflow = await mPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow <= 1, `managed page overflows by ${overflow}px at phone width`);
    await mContext.close();
  });

  if (traefik) {
    await step('live views: certificates need Traefik 3.7, a missing middleware is a conflict', async () => {
      await page.setViewportSize(viewports.desktop);
      await page.goto('/certificates');
      await page.getByText('Requires Traefik 3.7').waitFor();
      await page.goto(`/services/${state.serviceId}`);
      const mw = page.getByLabel('Middlewares', { exact: true });
      await mw.fill('missing-mw@file');
      await mw.press('Enter');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Service saved').waitFor();
      const until = Date.now() + 15000;
      let found = false;
      while (!found && Date.now() < until) {
        const body = await (await page.request.get('/api/proxy/conflicts')).json();
        found = (body.items ?? []).some((c) => c.kind === 'missing_middleware');
        if (!found) await new Promise((r) => setTimeout(r, 1000));
      }
      expect(found, 'no missing_middleware conflict reported');
      await page.goto('/conflicts');
      await page.getByText('Missing middleware').first().waitFor();
      await shot('conflicts-live-desktop');
      await page.goto('/metrics');
      await page.getByRole('link', { name: 'Wiki' }).first().waitFor();
      await shot('metrics-live-desktop');
    });
  }

  await step('delete the service with confirmation', async () => {
    await page.setViewportSize(viewports.desktop);
    await page.goto('/services');
    await page.getByRole('button', { name: 'Delete Wiki' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Delete Wiki?' });
    await shot('service-delete-desktop', page, { fullPage: false });
    await dialog.getByRole('button', { name: 'Delete service' }).click();
    await page.getByText('No services yet').waitFor();
  });
  await step('repeated wrong passwords lock sign-in with a clear message', async () => {
    expectedHttpErrors = [
      ['POST', /^\/api\/admin\/login$/, 401],
      ['POST', /^\/api\/admin\/login$/, 429],
    ];
    const lockContext = await browser.newContext({ viewport: viewports.phone, baseURL: base });
    const lockPage = await lockContext.newPage();
    lockPage.setDefaultTimeout(8000);
    watch(lockPage);
    await lockPage.goto('/login');
    await lockPage.getByLabel('Username', { exact: true }).fill(USER);
    for (let i = 0; i < 8; i++) {
      await lockPage.getByLabel('Password', { exact: true }).fill(`wrong-${i}`);
      await lockPage.getByRole('button', { name: 'Sign in' }).click();
      await lockPage.getByRole('button', { name: 'Sign in' }).and(lockPage.locator(':not([disabled])')).waitFor();
      if (await lockPage.getByText('Sign-in temporarily locked').isVisible()) break;
    }
    await lockPage.getByText('Sign-in temporarily locked').waitFor();
    await lockPage.getByText(/Try again in \d+ minutes?/).waitFor();
    await shot('login-locked-phone', lockPage);
    // Keyboard: the lock screen is usable without a mouse and focus is visible.
    await lockPage.mouse.click(5, 5);
    await lockPage.keyboard.press('Tab');
    const focus = await lockPage.evaluate(() => {
      const el = document.activeElement;
      const cs = el ? getComputedStyle(el) : null;
      return { tag: el?.tagName, outline: cs?.outlineStyle, width: cs?.outlineWidth };
    });
    expect(focus.tag && focus.tag !== 'BODY' && focus.outline !== 'none', `no visible keyboard focus: ${JSON.stringify(focus)}`);

    await lockContext.close();
  });
} catch (err) {
  failed++;
  failures.push('harness');
  log(`harness error: ${err?.stack ?? err}`);
} finally {
  await cleanup();
}

if (consoleWarnings.size) log(`\nconsole warnings (not failures):\n  ${[...consoleWarnings].join('\n  ')}`);
if (failures.length) log(`\nfailed: ${failures.join(', ')}\nscreenshots and panel.log in ${artifacts}`);
log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
