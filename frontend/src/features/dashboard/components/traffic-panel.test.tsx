import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePlot } from '@/test/fake-uplot';
import { emptyTraffic, servicesTrafficFixture, trafficFixture } from '@/test/traffic-fixtures';
import { mockFetch, renderRoute } from '@/test/utils';
import { TrafficPanel } from './traffic-panel';

beforeEach(() => {
  FakePlot.instances = [];
});
afterEach(() => vi.unstubAllGlobals());

describe('TrafficPanel', () => {
  it('shows the day’s total and error rate, and the busiest and most failing services with sparklines', async () => {
    const { calls } = mockFetch([
      { path: '/api/traffic?range=24h', body: trafficFixture() },
      { path: '/api/traffic/services?range=24h&points=24', body: servicesTrafficFixture() },
    ]);
    renderRoute(<TrafficPanel />);
    const busiest = await screen.findByTestId('top-busiest');
    // Idle had no requests: it is not among the busiest.
    expect(within(busiest).getAllByRole('link').map((a) => a.textContent)).toEqual(['Nextcloud', 'Grafana']);
    expect(within(busiest).getByRole('link', { name: 'Nextcloud' })).toHaveAttribute('href', '/services/s1/traffic');
    expect(within(busiest).getByRole('img', { name: 'Nextcloud: 5K requests in the last 24 hours' })).toBeInTheDocument();
    const failing = screen.getByTestId('top-failing');
    // Sorted by errors: Grafana's 120 before Nextcloud's 10.
    expect(within(failing).getAllByRole('link').map((a) => a.textContent)).toEqual(['Grafana', 'Nextcloud']);
    expect(within(failing).getByText('120 errors (15%)')).toBeInTheDocument();
    expect(await screen.findByText('690')).toBeInTheDocument();
    expect(screen.getByText('0.4%')).toBeInTheDocument();
    await waitFor(() => expect(FakePlot.live()).toHaveLength(1));
    expect(calls.filter((c) => c.url.startsWith('/api/traffic/services'))).toHaveLength(1);
  });

  it('says why both are empty when Traefik’s metrics are not configured', async () => {
    mockFetch([
      { path: '/api/traffic?range=24h', body: emptyTraffic('no_metrics', 'no metrics URL') },
      { path: '/api/traffic/services?range=24h&points=24', body: { ...servicesTrafficFixture(), state: 'no_metrics', reason: 'no metrics URL', services: [] } },
    ]);
    renderRoute(<TrafficPanel />);
    await waitFor(() => expect(screen.getAllByText("Traefik's metrics are not configured")).toHaveLength(2));
    expect(FakePlot.live()).toHaveLength(0);
  });

  it('says when no service answered an error', async () => {
    const quiet = servicesTrafficFixture();
    quiet.services = quiet.services.map((s) => ({ ...s, errors5xx: 0, errorRatio: 0 }));
    mockFetch([
      { path: '/api/traffic?range=24h', body: trafficFixture() },
      { path: '/api/traffic/services?range=24h&points=24', body: quiet },
    ]);
    renderRoute(<TrafficPanel />);
    expect(await screen.findByText('No service answered a 5xx in the last 24 hours.')).toBeInTheDocument();
  });
});
