import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import type { ClusterView } from '@/lib/api-types';
import { ReplicasCard } from './replicas-card';

afterEach(() => vi.unstubAllGlobals());

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function setup(view: ClusterView) {
  mockFetch([{ path: '/api/cluster', body: view }]);
  renderRoute(<ReplicasCard />, { path: '/system', url: '/system' });
}

describe('ReplicasCard', () => {
  it('on SQLite says the panel runs alone and where to read about replicas', async () => {
    setup({ engine: 'sqlite', replica: 'gate-1', replicas: [{ id: 'gate-1', address: '', since: minutesAgo(5), leader: true, listening: false, this: true }] });
    expect(await screen.findByText(/runs alone on SQLite/)).toHaveTextContent('“Several replicas (PostgreSQL)”');
    expect(screen.getByText('Database engine: SQLite')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('on PostgreSQL lists the replicas with the leader and this one named in text', async () => {
    setup({
      engine: 'postgres',
      replica: 'b2',
      replicas: [
        { id: 'a1', address: '10.0.0.1', since: minutesAgo(90), leader: true, listening: true, this: false },
        { id: 'b2', address: '10.0.0.2', since: minutesAgo(3), leader: false, listening: true, this: true },
        { id: 'c3', address: '', since: minutesAgo(1), leader: false, listening: false, this: false },
      ],
    });
    const table = await screen.findByRole('table', { name: 'Replicas' });
    expect(screen.getByText('Database engine: PostgreSQL')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    const row = (id: string) => within(table).getByRole('row', { name: new RegExp(`^${id}\\b`) });
    const [a, b, c] = [row('a1'), row('b2'), row('c3')];
    expect(within(a).getByText('a1')).toBeInTheDocument();
    expect(within(a).getByText('10.0.0.1')).toBeInTheDocument();
    expect(within(a).getByText('Leader')).toBeInTheDocument();
    expect(within(a).getByText(/hour/)).toBeInTheDocument();
    expect(within(a).queryByText('This replica')).not.toBeInTheDocument();

    expect(within(b).getByText('This replica')).toBeInTheDocument();
    expect(within(b).getByText('Follower')).toBeInTheDocument();
    expect(within(b).queryByText('Leader')).not.toBeInTheDocument();

    expect(within(c).getByText('local socket')).toBeInTheDocument();
    expect(within(c).getByText('Not listening')).toBeInTheDocument();
    expect(within(table).getAllByText('Leader')).toHaveLength(1);
  });

  it('says so when the replicas cannot be loaded', async () => {
    mockFetch([{ path: '/api/cluster', status: 500, body: { error: { code: 'internal', message: 'internal error', requestId: 'r1' } } }]);
    renderRoute(<ReplicasCard />, { path: '/system', url: '/system' });
    expect(await screen.findByText('Could not load the replicas')).toBeInTheDocument();
  });
});
