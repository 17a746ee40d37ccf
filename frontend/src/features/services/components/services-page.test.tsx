import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { servicesTrafficFixture } from '@/test/traffic-fixtures';
import { mockFetch, renderRoute } from '@/test/utils';
import { ServicesPage } from './services-page';

afterEach(() => vi.unstubAllGlobals());

const service = (id: string, name: string) => ({
  id,
  name,
  enabled: true,
  kind: 'proxy',
  fqdns: [`${name.toLowerCase()}.example.com`],
  targets: [{ scheme: 'http', host: '10.0.0.2', port: 8080 }],
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
});

describe('ServicesPage traffic column', () => {
  it('draws every row’s sparkline from one request for every service', async () => {
    const { calls } = mockFetch([
      { path: '/api/services', body: { items: [service('s1', 'Nextcloud'), service('s2', 'Grafana'), service('s9', 'New')] } },
      { path: '/api/traffic/services?range=24h&points=24', body: servicesTrafficFixture() },
    ]);
    renderRoute(<ServicesPage />);
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getAllByTestId('service-traffic')).toHaveLength(2));
    expect(within(table).getByRole('img', { name: 'Nextcloud: 5,000 requests in the last 24 hours' })).toBeInTheDocument();
    expect(within(table).getByText('800/24 h')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.includes('/traffic'))).toHaveLength(1);
  });
});
