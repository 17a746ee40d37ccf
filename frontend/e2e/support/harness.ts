// The processes a scenario needs: the panel binary on a free port with an empty data
// directory, an optional real Traefik with the panel as its HTTP provider, a tiny upstream for
// the service under test and, for the OpenID provider's scenario, oauth2-proxy as a real relying
// party. stop() ends every process, keeps their output in a log file and removes every
// temporary directory; the `harness` worker fixture calls it when the worker ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
export const panelBinary = process.env.GATEHOUSE_BIN ?? path.join(repo, 'backend/bin/gatehouse');

// The kernel may offer a port it just offered again once its probe socket is closed: a port is
// handed out once per worker, so two processes of one scenario never collide.
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.unref();
      srv.on('error', reject);
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

async function waitForHealth(base: string, proc: ChildProcess, timeoutMs = 20000) {
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
export function findTraefik(): string | null {
  if (process.env.TRAEFIK_BIN) return process.env.TRAEFIK_BIN;
  const cache = process.env.GATEHOUSE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'gatehouse');
  const cached = path.join(cache, 'traefik', process.env.TRAEFIK_VERSION ?? 'v3.6.12', 'traefik');
  return existsSync(cached) ? cached : null;
}

// The oauth2-proxy binary backend/scripts/oauth2-proxy.sh builds and caches (OAUTH2_PROXY_BIN, as
// `make e2e-ui` sets it, or the cached one); null without one: the scenarios that need it skip.
export function findOAuth2Proxy(): string | null {
  if (process.env.OAUTH2_PROXY_BIN) return process.env.OAUTH2_PROXY_BIN;
  const cache = process.env.GATEHOUSE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'gatehouse');
  const cached = path.join(cache, 'oauth2-proxy', process.env.OAUTH2_PROXY_VERSION ?? 'v7.15.6', 'oauth2-proxy');
  return existsSync(cached) ? cached : null;
}

/** What oauth2-proxy needs to sign people in with the panel's provider, in front of an upstream. */
export interface OAuth2ProxyOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The browser-facing callback, <app URL>/oauth2/callback: the client's registered redirect URI. */
  redirectURL: string;
  upstream: string;
  port: number;
}

/**
 * The command line the scenarios run oauth2-proxy with (docs/oidc-apps.md shows the same flags):
 * provider oidc with PKCE (S256), the identity headers passed to the upstream, a Secure cookie
 * when the app is served over HTTPS, behind a reverse proxy, straight to the provider without
 * oauth2-proxy's own sign-in button.
 */
export function oauth2ProxyArgs(o: OAuth2ProxyOptions, cookieSecret: string): string[] {
  return [
    '--provider=oidc',
    '--provider-display-name=Gatehouse',
    `--oidc-issuer-url=${o.issuer}`,
    `--client-id=${o.clientId}`,
    `--client-secret=${o.clientSecret}`,
    `--redirect-url=${o.redirectURL}`,
    '--scope=openid profile email groups',
    '--code-challenge-method=S256',
    '--oidc-groups-claim=groups',
    '--email-domain=*',
    `--upstream=${o.upstream}`,
    `--http-address=127.0.0.1:${o.port}`,
    '--reverse-proxy=true',
    '--skip-provider-button=true',
    '--pass-user-headers=true',
    `--cookie-secret=${cookieSecret}`,
    `--cookie-secure=${o.redirectURL.startsWith('https://')}`,
    '--silence-ping-logging=true',
  ];
}

export interface Panel {
  base: string;
  dir: string;
  proc: ChildProcess;
  /** Resolves once /api/health answers. */
  ready: () => Promise<void>;
}

export interface TraefikAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
}

export interface TraefikRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
}

export interface Traefik {
  web: number;
  websecure: number;
  api: number;
  apiURL: string;
  /** Sends count GETs for host through the websecure entrypoint; answers how many got a 200. */
  get: (host: string, count: number) => Promise<number>;
  request: (host: string, opts?: TraefikRequest) => Promise<TraefikAnswer>;
}

// Never leave a panel or Traefik behind, even when a worker exits without its teardown.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const p of running) if (p.exitCode === null) p.kill('SIGKILL');
});

/** Owns every process and temporary directory of one worker. */
export class Harness {
  #procs: ChildProcess[] = [];
  #dirs: string[] = [];
  #log: string[] = [];
  #servers: http.Server[] = [];

  /** @param logFile where stop() writes the processes' output */
  constructor(readonly logFile: string) {}

  /** The processes' output so far. */
  log(): string {
    return this.#log.join('');
  }

  tempDir(prefix: string): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    this.#dirs.push(dir);
    return dir;
  }

  #spawn(command: string, args: string[], env: NodeJS.ProcessEnv, logPrefix: string): ChildProcess {
    const proc = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout?.on('data', (d) => this.#log.push(`${logPrefix}${d}`));
    proc.stderr?.on('data', (d) => this.#log.push(`${logPrefix}${d}`));
    this.#procs.push(proc);
    running.add(proc);
    proc.on('exit', () => running.delete(proc));
    return proc;
  }

  /**
   * Starts a panel on `port` (a free one when omitted) with an empty data directory, or with
   * `dir`, the data directory of a panel stopped before (a restart).
   */
  async startPanel({ port, env = {}, dirPrefix = 'gatehouse-e2e-', dir: reuse }: { port?: number; env?: Record<string, string>; dirPrefix?: string; dir?: string } = {}): Promise<Panel> {
    const listen = port ?? (await freePort());
    const dir = reuse ?? this.tempDir(dirPrefix);
    const base = `http://127.0.0.1:${listen}`;
    const proc = this.#spawn(panelBinary, [], { ...process.env, PANEL_LISTEN: `127.0.0.1:${listen}`, PANEL_DATA_DIR: dir, ...env }, '');
    return { base, dir, proc, ready: () => waitForHealth(base, proc) };
  }

  /**
   * A tiny upstream for the service, so Traefik has a healthy backend and real traffic. It
   * answers the Remote-User it received as X-Upstream-Remote-User, to show which identity
   * forward auth handed over.
   */
  async startUpstream(): Promise<{ port: number }> {
    const upstream = http.createServer((req, res) => {
      const headers: Record<string, string> = { 'Content-Type': 'text/plain' };
      const user = req.headers['remote-user'];
      if (typeof user === 'string' && user) headers['X-Upstream-Remote-User'] = user;
      res.writeHead(200, headers);
      res.end('hello from the wiki upstream\n');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    this.#servers.push(upstream);
    return { port: (upstream.address() as net.AddressInfo).port };
  }

  /**
   * An upstream that shows, as a page, the identity headers oauth2-proxy handed it: one line
   * `<header>: <value>` for each X-Forwarded-User, -Email, -Groups and -Preferred-Username it got.
   */
  async startHeadersUpstream(): Promise<{ port: number }> {
    const names = ['x-forwarded-user', 'x-forwarded-email', 'x-forwarded-groups', 'x-forwarded-preferred-username'];
    const escape = (v: string) => v.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    const upstream = http.createServer((req, res) => {
      const lines = names.filter((n) => typeof req.headers[n] === 'string').map((n) => `<li>${n}: ${escape(String(req.headers[n]))}</li>`);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><title>Upstream</title><h1>hello from the app upstream</h1><ul aria-label="Identity headers">${lines.join('')}</ul></html>`);
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    this.#servers.push(upstream);
    return { port: (upstream.address() as net.AddressInfo).port };
  }

  /**
   * Starts oauth2-proxy (findOAuth2Proxy) as a relying party of the provider at o.issuer, which
   * must answer its discovery document already, and waits until its /ping answers. Returns false
   * without a binary.
   */
  async startOAuth2Proxy(o: OAuth2ProxyOptions): Promise<boolean> {
    const bin = findOAuth2Proxy();
    if (!bin) return false;
    const proc = this.#spawn(bin, oauth2ProxyArgs(o, randomBytes(16).toString('hex')), process.env, '[oauth2-proxy] ');
    const deadline = Date.now() + 30000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`oauth2-proxy exited with code ${proc.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${o.port}/ping`)).ok) return true;
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error('oauth2-proxy did not answer /ping within 30 s');
  }

  /**
   * Starts the real Traefik, when a binary is at hand, with the panel on `panelPort` as its
   * HTTP provider. Returns null without a binary.
   */
  async startTraefik(panelPort: number): Promise<Traefik | null> {
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

  /**
   * Starts Traefik, when a binary is at hand, with `yml` as its static configuration file
   * (a traefik.yml as a person would save it); answers the file's path, or null without a binary.
   */
  startTraefikFrom(yml: string): string | null {
    const traefikBin = findTraefik();
    if (!traefikBin) return null;
    const file = path.join(this.tempDir('gatehouse-e2e-traefik-'), 'traefik.yml');
    writeFileSync(file, yml);
    this.#spawn(traefikBin, [`--configFile=${file}`], process.env, '[traefik] ');
    return file;
  }

  /** Stops everything, keeps the processes' output in logFile and removes the data. */
  async stop(): Promise<void> {
    for (const p of this.#procs) if (p.exitCode === null) p.kill('SIGTERM');
    for (const s of this.#servers) s.close();
    mkdirSync(path.dirname(this.logFile), { recursive: true });
    writeFileSync(this.logFile, this.log());
    for (const d of this.#dirs) rmSync(d, { recursive: true, force: true });
  }
}

/** Sends requests through Traefik's websecure entrypoint as a browser would; returns how many got a 200. */
async function throughTraefik(port: number, host: string, count: number): Promise<number> {
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
function requestThroughTraefik(port: number, host: string, { method = 'GET', path = '/', headers = {} }: TraefikRequest = {}): Promise<TraefikAnswer> {
  return new Promise((resolve) => {
    const req = https.request(
      { host: '127.0.0.1', port, method, path, servername: host, headers: { Host: host, ...headers }, rejectUnauthorized: false, timeout: 3000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('error', () => resolve({ status: 0, headers: {} }));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}
