// Console and HTTP errors as verdicts: a test fails when a page it drove logged a console error
// or met an HTTP error it did not declare with allowHttp(). Pages are watched when openPage()
// creates them; the `judgeErrors` fixture in test.ts checks what each test added.
import type { Page } from '@playwright/test';

/** An HTTP error a test provokes on purpose: [method, path regex, status]. */
export type HttpRule = [method: string, path: RegExp, status: number];

class Judge {
  #errors: string[] = [];
  #allowed: HttpRule[] = [];
  /** Console warnings of the whole worker, printed when it ends (not failures). */
  readonly warnings = new Set<string>();

  watch(page: Page): void {
    page.on('console', (msg) => {
      if (msg.type() === 'warning') this.warnings.add(msg.text().slice(0, 200));
      if (msg.type() !== 'error') return;
      const text = msg.text();
      // Chromium logs every non-2xx fetch as "Failed to load resource"; those are judged by
      // the response listener below against the test's allowed errors.
      if (text.startsWith('Failed to load resource')) return;
      this.#errors.push(`${page.url()}: ${text}`);
    });
    page.on('pageerror', (err) => this.#errors.push(`${page.url()}: uncaught ${err.message}`));
    page.on('response', (res) => {
      if (res.status() < 400) return;
      const url = new URL(res.url());
      const method = res.request().method();
      const ok = this.#allowed.some(([m, re, s]) => m === method && re.test(url.pathname) && s === res.status());
      if (!ok) this.#errors.push(`${method} ${url.pathname}${url.search} → ${res.status()}`);
    });
  }

  allow(rules: HttpRule[]): void {
    this.#allowed = rules;
  }

  /** Starts a test: nothing allowed yet; answers the mark end() counts from. */
  begin(): number {
    this.#allowed = [];
    return this.#errors.length;
  }

  /** Ends a test: the errors its pages met since mark. */
  end(mark: number): string[] {
    this.#allowed = [];
    return this.#errors.slice(mark);
  }
}

/** One judge per worker: a worker runs one test at a time. */
export const judge = new Judge();

/** Declares the HTTP errors the running test provokes on purpose (e.g. a wrong password). */
export function allowHttp(...rules: HttpRule[]): void {
  judge.allow(rules);
}
