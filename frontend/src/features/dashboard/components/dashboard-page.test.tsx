import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { DashboardPage } from './dashboard-page';

afterEach(() => vi.unstubAllGlobals());

describe('DashboardPage', () => {
  it('lists services in a table that stacks into labelled cards on phones', async () => {
    mockFetch([
      { path: '/api/system', body: { version: '1.0.0', managed: false, setupRequired: false } },
      {
        path: '/api/services',
        body: { items: [{ id: 's1', name: 'Wiki', enabled: false, fqdns: ['wiki.example.test'], createdAt: '2026-01-01T00:00:00Z', targets: [] }] },
      },
    ]);
    renderRoute(<DashboardPage />);
    const link = await screen.findByRole('link', { name: 'Wiki' });
    const table = link.closest('table')!;
    expect(table).toHaveClass('stacked');
    const cells = within(table).getAllByRole('cell');
    expect(cells.map((c) => c.getAttribute('data-label'))).toEqual([null, 'Hostname', 'Status', 'Created']);
    expect(cells[1]).toHaveTextContent('wiki.example.test');
  });
});
