import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccessLogEntry } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { AccessLogTable } from '../components/access-log-table';
import { fetchLogPage, mergeNewestFirst } from './access-log';

afterEach(() => vi.unstubAllGlobals());

const entry = (seq: number, over: Partial<AccessLogEntry> = {}): AccessLogEntry => ({
  seq,
  time: new Date().toISOString(),
  serviceId: 's1',
  serviceName: 'Nextcloud',
  clientAddress: '203.0.113.7',
  method: 'GET',
  host: 'cloud.example.com',
  path: `/p${seq}`,
  decision: 'allowed',
  by: 'service rule 1 (allow)',
  identity: '',
  reason: '',
  ...over,
});
const seqs = (rows: AccessLogEntry[]) => rows.map((r) => r.seq);

describe('mergeNewestFirst', () => {
  it.each([
    { name: 'first page', current: [], incoming: [3, 2, 1], cap: 10, want: [3, 2, 1] },
    { name: 'newer entries go on top', current: [3, 2, 1], incoming: [5, 4], cap: 10, want: [5, 4, 3, 2, 1] },
    { name: 'each seq once', current: [3, 2, 1], incoming: [4, 3, 2], cap: 10, want: [4, 3, 2, 1] },
    { name: 'out-of-order answers are sorted', current: [5, 1], incoming: [2, 6, 3], cap: 10, want: [6, 5, 3, 2, 1] },
    { name: 'capped, oldest dropped', current: [3, 2, 1], incoming: [6, 5, 4], cap: 4, want: [6, 5, 4, 3] },
    { name: 'nothing new', current: [2, 1], incoming: [], cap: 10, want: [2, 1] },
  ])('$name', ({ current, incoming, cap, want }) => {
    expect(seqs(mergeNewestFirst(current.map((s) => entry(s)), incoming.map((s) => entry(s)), cap))).toEqual(want);
  });

  it('answers the same array when nothing is new, so nothing re-renders', () => {
    const rows = [entry(2), entry(1)];
    expect(mergeNewestFirst(rows, [entry(1)])).toBe(rows);
  });
});

describe('fetchLogPage', () => {
  it('asks a service or the global log with filters and the last seq', async () => {
    const { calls } = mockFetch([{ path: /access-log/, body: { items: [], capacity: 1000 } }]);
    await fetchLogPage('s1', { decision: 'denied', address: '', identity: 'alice' }, 42);
    await fetchLogPage(undefined, { serviceId: 's2' });
    expect(calls.map((c) => c.url)).toEqual([
      '/api/services/s1/access-log?decision=denied&identity=alice&after=42&limit=100',
      '/api/access-log?serviceId=s2&limit=100',
    ]);
  });
});

describe('AccessLogTable', () => {
  it('polls with after=<newest seq>, merges new rows on top, and reads filters from the URL', async () => {
    const { calls } = mockFetch([
      { path: /\/api\/access-log\?.*after=2/, body: { items: [entry(3, { decision: 'denied', by: 'service rule 2 (deny)', path: '/admin' })], capacity: 1000 } },
      {
        path: /\/api\/access-log\?/,
        body: { items: [entry(2, { decision: 'unauthenticated', by: 'basic auth', reason: 'wrong_password' }), entry(1)], capacity: 1000 },
      },
      { path: '/api/services', body: { items: [{ id: 's1', name: 'Nextcloud' }] } },
    ]);
    renderRoute(<AccessLogTable />, { url: '/?decision=denied&service=s1' });
    expect(await screen.findByText('/p2')).toBeInTheDocument();
    const first = calls.find((c) => c.url.startsWith('/api/access-log'))!;
    expect(first.url).toBe('/api/access-log?serviceId=s1&decision=denied&limit=100');
    expect(screen.getByLabelText('Decision')).toHaveValue('denied');

    await waitFor(() => expect(screen.getByText('/admin')).toBeInTheDocument(), { timeout: 5000 });
    expect(calls.some((c) => c.url === '/api/access-log?serviceId=s1&decision=denied&after=2&limit=100')).toBe(true);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('GET /admin');
    expect(rows[1]).toHaveTextContent('GET /p2');
    expect(rows[2]).toHaveTextContent('GET /p1');
    // Decision is text, not only colour.
    expect(within(rows[0]!).getByText('Denied')).toBeInTheDocument();
    // A wrong password is told from missing credentials.
    expect(within(rows[1]!).getByText('wrong username or password')).toBeInTheDocument();
  }, 30_000);
});
