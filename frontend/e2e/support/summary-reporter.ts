// Prints "N passed, N failed" (", N skipped" when some were) as the run's last line, the
// closing line CI reads, after the list reporter's own summary.
import type { FullResult, Reporter, TestCase } from '@playwright/test/reporter';

export default class SummaryReporter implements Reporter {
  #tests = new Set<TestCase>();

  onTestEnd(test: TestCase): void {
    this.#tests.add(test);
  }

  onEnd(result: FullResult): void {
    const outcomes = [...this.#tests].map((t) => t.outcome());
    const passed = outcomes.filter((o) => o === 'expected' || o === 'flaky').length;
    const skipped = outcomes.filter((o) => o === 'skipped').length;
    let failed = outcomes.filter((o) => o === 'unexpected').length;
    // A run that fails outside any test (global setup, a worker fixture) counts as one failure.
    if (result.status !== 'passed' && failed === 0) failed = 1;
    // Nothing ran and nothing failed: a listing (--list), not a run.
    if (outcomes.length === 0 && failed === 0) return;
    console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
