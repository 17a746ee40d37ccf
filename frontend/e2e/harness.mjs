// The processes an end-to-end run needs: the panel binary on a free port with an empty data
// directory, an optional real Traefik with the panel as its HTTP provider, a tiny upstream
// for the service under test, and Debian's Chromium through playwright-core. Everything is
// stopped and every temporary directory removed by stop(), even when the run is interrupted.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function freePort() {
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

// A Traefik binary when one is at hand: TRAEFIK_BIN, or the one the backend's e2e builds
// into the cache. Without one, the runtime pages are checked in their "not connected" state.
function findTraefik() {
  if (process.env.TRAEFIK_BIN) return process.env.TRAEFIK_BIN;
  const cache = process.env.GATEHOUSE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'gatehouse');
  const cached = path.join(cache, 'traefik', process.env.TRAEFIK_VERSION ?? 'v3.6.12', 'traefik');
  return existsSync(cached) ? cached : null;
}

/** Owns every process and temporary directory of a run. */
export class Harness {
  #procs = [];
  #dirs = [];
  #log = [];
  #servers = [];
  browser = null;

  constructor({ artifacts }) {
    this.artifacts = artifacts;
    // Never leave a panel or Traefik behind, even when the run is interrupted.
    process.on('exit', () => {
      for (const p of this.#procs) if (p.exitCode === null) p.kill('SIGKILL');
    });
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => process.exit(130));
  }

  tempDir(prefix) {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    this.#dirs.push(dir);
    return dir;
  }

  #spawn(command, args, env, logPrefix) {
    const proc = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout.on('data', (d) => this.#log.push(`${logPrefix}${d}`));
    proc.stderr.on('data', (d) => this.#log.push(`${logPrefix}${d}`));
    this.#procs.push(proc);
    return proc;
  }

  /**
   * Starts a panel on `port` (a free one when omitted) with an empty data directory. The
   * returned `ready` resolves once /api/health answers.
   */
  async startPanel({ port, env = {}, dirPrefix = 'gatehouse-e2e-' } = {}) {
    const listen = port ?? (await freePort());
    const dir = this.tempDir(dirPrefix);
    const base = `http://127.0.0.1:${listen}`;
    const proc = this.#spawn(bin, [], { ...process.env, PANEL_LISTEN: `127.0.0.1:${listen}`, PANEL_DATA_DIR: dir, ...env }, '');
    return { base, dir, proc, ready: () => waitForHealth(base, proc) };
  }

  /**
   * A tiny upstream for the service, so Traefik has a healthy backend and real traffic. It
   * answers the Remote-User it received as X-Upstream-Remote-User, to show which identity
   * forward auth handed over.
   */
  async startUpstream() {
    const upstream = http.createServer((req, res) => {
      const headers = { 'Content-Type': 'text/plain' };
      if (req.headers['remote-user']) headers['X-Upstream-Remote-User'] = req.headers['remote-user'];
      res.writeHead(200, headers);
      res.end('hello from the wiki upstream\n');
    });
    await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
    this.#servers.push(upstream);
    return { port: upstream.address().port };
  }

  /**
   * Starts the real Traefik, when a binary is at hand, with the panel on `panelPort` as its
   * HTTP provider. Returns null without a binary.
   */
  async startTraefik(panelPort) {
    const traefikBin = findTraefik();
    if (!traefikBin) return null;
    const ports = { web: await freePort(), websecure: await freePort(), api: await freePort() };
    const dir = this.tempDir('gatehouse-e2e-traefik-');
    const cfg = `entryPoints:
  web: { address: "127.0.0.1:${ports.web}" }
  websecure: { address: "127.0.0.1:${ports.websecure}", http: { tls: {} } }
  traefik: { address: "127.0.0.1:${ports.api}" }
api: { insecure: true, dashboard: false }
ping: { entryPoint: traefik }
metrics:
  prometheus: { entryPoint: traefik, addEntryPointsLabels: true, addRoutersLabels: true, addServicesLabels: true }
providers:
  http: { endpoint: "http://127.0.0.1:${panelPort}/api/proxy/config", pollInterval: "1s", pollTimeout: "5s" }
log: { level: ERROR, filePath: "${path.join(dir, 'traefik.log')}" }
global: { checkNewVersion: false, sendAnonymousUsage: false }
`;
    writeFileSync(path.join(dir, 'traefik.yml'), cfg);
    this.#spawn(traefikBin, [`--configFile=${path.join(dir, 'traefik.yml')}`], process.env, '[traefik] ');
    return {
      ...ports,
      apiURL: `http://127.0.0.1:${ports.api}`,
      get: (host, count) => throughTraefik(ports.websecure, host, count),
      request: (host, opts) => requestThroughTraefik(ports.websecure, host, opts),
    };
  }

  async launchBrowser() {
    this.browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    return this.browser;
  }

  /** Stops everything, keeps the processes' output as panel.log and removes the data. */
  async stop() {
    try {
      await this.browser?.close();
    } catch {
      /* ignore */
    }
    for (const p of this.#procs) if (p.exitCode === null) p.kill('SIGTERM');
    for (const s of this.#servers) s.close();
    writeFileSync(path.join(this.artifacts, 'panel.log'), this.#log.join(''));
    for (const d of this.#dirs) rmSync(d, { recursive: true, force: true });
  }
}

/** Sends requests through Traefik's websecure entrypoint as a browser would; returns how many got a 200. */
async function throughTraefik(port, host, count) {
  let ok = 0;
  for (let i = 0; i < count; i++) {
    const { status } = await requestThroughTraefik(port, host);
    if (status === 200) ok++;
  }
  return ok;
}

/**
 * Sends one request through Traefik's websecure entrypoint (services are routed there by
 * default); answers its status and headers, status 0 when the connection failed.
 */
function requestThroughTraefik(port, host, { method = 'GET', path = '/', headers = {} } = {}) {
  return new Promise((resolve) => {
    const req = https.request(
      { host: '127.0.0.1', port, method, path, servername: host, headers: { Host: host, ...headers }, rejectUnauthorized: false, timeout: 3000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
      },
    );
    req.on('error', () => resolve({ status: 0, headers: {} }));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}
