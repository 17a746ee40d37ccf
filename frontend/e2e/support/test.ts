// The suite's `test`: Playwright's, with the fixtures every spec shares.
//   harness      (worker) the panels, Traefik and upstreams a worker starts, stopped when it ends
//   judgeErrors  (auto)   fails a test whose pages logged a console error or met an HTTP
//                         error it did not declare with allowHttp()
// Each spec extends it with the panel it runs against (see main.spec.ts for the shared chain).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { Harness } from './harness';
import { judge } from './judge';
import { artifacts } from './page';

export { expect } from '@playwright/test';
export { allowHttp, type HttpRule } from './judge';

export const test = base.extend<{ judgeErrors: void }, { harness: Harness }>({
  harness: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const harness = new Harness(path.join(artifacts, `panel-worker${workerInfo.workerIndex}.log`));
      await use(harness);
      await harness.stop();
      if (judge.warnings.size) console.log(`console warnings (not failures):\n  ${[...judge.warnings].join('\n  ')}`);
    },
    { scope: 'worker' },
  ],
  judgeErrors: [
    async ({ harness }, use, testInfo) => {
      const mark = judge.begin();
      await use();
      const errors = judge.end(mark);
      if (testInfo.status !== testInfo.expectedStatus || errors.length) {
        const log = testInfo.outputPath('processes.log');
        writeFileSync(log, harness.log());
        await testInfo.attach('processes.log', { path: log, contentType: 'text/plain' });
      }
      if (errors.length) throw new Error(`console/HTTP errors:\n    ${errors.join('\n    ')}`);
    },
    { auto: true },
  ],
});

/** Calls check until it answers something truthy or timeoutMs passes; returns its last answer. */
export async function eventually<T>(check: () => Promise<T> | T, { timeoutMs = 15000, intervalMs = 1000 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let answer = await check();
  while (!answer && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, intervalMs));
    answer = await check();
  }
  return answer;
}
