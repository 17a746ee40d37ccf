// A small sequential runner: each step passes when its function resolves and the pages it
// drove logged no console error and met no HTTP error it did not declare. A failed step is
// reported with a screenshot and the run goes on; the summary line is "N passed, N failed".
import path from 'node:path';

export function expect(cond, message) {
  if (!cond) throw new Error(message);
}

/** Calls check until it returns something truthy or timeoutMs passes; returns its last answer. */
export async function eventually(check, { timeoutMs = 15000, intervalMs = 1000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let answer = await check();
  while (!answer && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, intervalMs));
    answer = await check();
  }
  return answer;
}

export class Runner {
  passed = 0;
  failed = 0;
  #failures = [];
  #consoleErrors = [];
  #consoleWarnings = new Set();
  #unexpectedHttp = [];
  // HTTP errors the running step provokes on purpose (e.g. a wrong password): [method, path regex, status].
  #allowedHttp = [];

  /** @param {{ artifacts: string, failurePage: () => import('playwright-core').Page | undefined }} opts */
  constructor({ artifacts, failurePage }) {
    this.artifacts = artifacts;
    this.failurePage = failurePage;
  }

  log(...args) {
    console.log(...args);
  }

  /** Judges a page's console and HTTP errors against the running step. */
  watch(page) {
    page.on('console', (msg) => {
      if (msg.type() === 'warning') this.#consoleWarnings.add(msg.text().slice(0, 200));
      if (msg.type() !== 'error') return;
      const text = msg.text();
      // Chromium logs every non-2xx fetch as "Failed to load resource"; those are judged by
      // the response listener below against the step's allowed errors.
      if (text.startsWith('Failed to load resource')) return;
      this.#consoleErrors.push(`${page.url()}: ${text}`);
    });
    page.on('pageerror', (err) => this.#consoleErrors.push(`${page.url()}: uncaught ${err.message}`));
    page.on('response', (res) => {
      if (res.status() < 400) return;
      const url = new URL(res.url());
      const method = res.request().method();
      const ok = this.#allowedHttp.some(([m, re, s]) => m === method && re.test(url.pathname) && s === res.status());
      if (!ok) this.#unexpectedHttp.push(`${method} ${url.pathname}${url.search} → ${res.status()}`);
    });
  }

  /**
   * Runs one step. `allowHttp` lists the HTTP errors it provokes on purpose, as
   * [method, path regex, status].
   */
  async step(name, fn, { allowHttp = [] } = {}) {
    const errsBefore = this.#consoleErrors.length;
    const httpBefore = this.#unexpectedHttp.length;
    const started = Date.now();
    this.#allowedHttp = allowHttp;
    try {
      await fn();
      const newErrors = [...this.#consoleErrors.slice(errsBefore), ...this.#unexpectedHttp.slice(httpBefore)];
      if (newErrors.length) throw new Error(`console/HTTP errors:\n    ${newErrors.join('\n    ')}`);
      this.passed++;
      this.log(`  ✓ ${name} (${Date.now() - started} ms)`);
    } catch (err) {
      this.failed++;
      this.#failures.push(name);
      this.log(`  ✗ ${name}\n    ${String(err?.message ?? err).split('\n').join('\n    ')}`);
      try {
        await this.failurePage()?.screenshot({ path: path.join(this.artifacts, `FAILED-${name.replace(/\W+/g, '-')}.png`), fullPage: true });
      } catch {
        /* ignore */
      }
    } finally {
      this.#allowedHttp = [];
    }
  }

  /** Counts an error outside any step (starting a process, launching the browser) as a failure. */
  harnessError(err) {
    this.failed++;
    this.#failures.push('harness');
    this.log(`harness error: ${err?.stack ?? err}`);
  }

  /** Prints the warnings, the failures and the closing line; returns the exit code. */
  summary() {
    if (this.#consoleWarnings.size) this.log(`\nconsole warnings (not failures):\n  ${[...this.#consoleWarnings].join('\n  ')}`);
    if (this.#failures.length) this.log(`\nfailed: ${this.#failures.join(', ')}\nscreenshots and panel.log in ${this.artifacts}`);
    this.log(`${this.passed} passed, ${this.failed} failed`);
    return this.failed ? 1 : 0;
  }
}
