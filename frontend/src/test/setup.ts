import '@testing-library/jest-dom/vitest';
// Components read their texts through i18next; tests see the English ones.
import '@/lib/i18n';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// jsdom has no canvas (and uPlot reads matchMedia as it loads): every test draws charts with
// a stand-in that keeps what it was given (test/fake-uplot.ts).
vi.mock('uplot', () => import('./fake-uplot'));

// findBy* and waitFor give up after 1 s by default; a loaded 2-core CI
// machine running the Go suites beside these can take longer to render a
// route. A real failure still fails, only later.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => cleanup());
