import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePlot } from '@/test/fake-uplot';
import { emptyTraffic, trafficFixture } from '@/test/traffic-fixtures';
import { mockFetch, renderRoute } from '@/test/utils';
import { ServiceTrafficPage } from './service-traffic-page';

beforeEach(() => {
  FakePlot.instances = [];
});
afterEach(() => vi.unstubAllGlobals());

const route = { path: '/services/:id/traffic', url: '/services/s1/traffic' };
const labels = () => FakePlot.live().map((p) => p.opts.series.slice(1).map((s) => s.label));

describe('ServiceTrafficPage', () => {
  it('draws status classes, latency, bytes and decisions, and the backends’ uptime', async () => {
    const { calls } = mockFetch([{ path: '/api/services/s1/traffic?range=24h', body: trafficFixture() }]);
    renderRoute(<ServiceTrafficPage />, route);
    expect(await screen.findByTestId('traffic-totals')).toHaveTextContent('690');
    // 3 of 690 answered 5xx.
    expect(screen.getByTestId('traffic-totals')).toHaveTextContent('0.4%');
    await waitFor(() => expect(FakePlot.live()).toHaveLength(4));
    expect(labels()).toEqual([
      ['5xx', '4xx', '3xx', '2xx'],
      ['p50', 'p95', 'p99'],
      ['In', 'Out'],
      ['Rate limited', 'Denied', 'Asked to sign in', 'Signed in', 'Allowed'],
    ]);
    // Every chart of the tab shares one hover line.
    expect(new Set(FakePlot.live().map((p) => p.opts.cursor?.sync?.key))).toEqual(new Set(['service-traffic']));
    expect(screen.getByRole('img', { name: /^Backend health: / })).toBeInTheDocument();
    expect(screen.getByText(/Recorded by the panel in steps of 1m/)).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toEqual(['/api/services/s1/traffic?range=24h']);
  });

  it('asks for the picked range, and a drag asks for the zoomed part', async () => {
    const { calls } = mockFetch([{ path: /\/api\/services\/s1\/traffic\?/, body: trafficFixture() }]);
    const { router } = renderRoute(<ServiceTrafficPage />, route);
    await waitFor(() => expect(FakePlot.live()).toHaveLength(4));
    fireEvent.click(screen.getByRole('button', { name: '7 d' }));
    await waitFor(() => expect(calls.at(-1)?.url).toBe('/api/services/s1/traffic?range=7d'));
    expect(screen.getByRole('button', { name: '7 d' })).toHaveAttribute('aria-pressed', 'true');

    const plot = FakePlot.live()[0]!;
    const from = Date.UTC(2026, 10, 26, 10, 10) / 1000;
    plot.select = { left: from, top: 0, width: 1200, height: 50 };
    act(() => plot.fire('setSelect'));
    await waitFor(() => expect(calls.at(-1)?.url).toBe('/api/services/s1/traffic?range=7d&from=2026-11-26T10%3A10%3A00Z&to=2026-11-26T10%3A30%3A00Z'));
    expect(router.state.location.search).toContain('from=');
    expect(screen.getByTestId('zoomed')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Reset zoom' }));
    await waitFor(() => expect(router.state.location.search).toBe('?range=7d'));
  });

  it('widens a very small zoom to five minutes', async () => {
    const { calls } = mockFetch([{ path: /\/api\/services\/s1\/traffic\?/, body: trafficFixture() }]);
    renderRoute(<ServiceTrafficPage />, route);
    await waitFor(() => expect(FakePlot.live()).toHaveLength(4));
    const plot = FakePlot.live()[0]!;
    const at = Date.UTC(2026, 10, 26, 10, 30) / 1000;
    plot.select = { left: at, top: 0, width: 60, height: 50 };
    act(() => plot.fire('setSelect'));
    await waitFor(() => expect(calls.at(-1)?.url).toContain('from=2026-11-26T10%3A28%3A00Z&to=2026-11-26T10%3A33%3A00Z'));
  });

  it('says why there is nothing: Traefik’s metrics not configured, with the docs', async () => {
    mockFetch([{ path: /\/api\/services\/s1\/traffic\?/, body: emptyTraffic('no_metrics', 'Traefik metrics URL not set') }]);
    renderRoute(<ServiceTrafficPage />, route);
    expect(await screen.findByText("Traefik's metrics are not configured")).toBeInTheDocument();
    expect(screen.getByText('Traefik metrics URL not set.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "How to enable Traefik's metrics" })).toBeInTheDocument();
    expect(FakePlot.live()).toHaveLength(0);
  });

  it('still draws the panel’s own decisions when Traefik’s metrics are missing', async () => {
    const tr = trafficFixture({ state: 'no_metrics', reason: 'not configured' });
    mockFetch([{ path: /\/api\/services\/s1\/traffic\?/, body: tr }]);
    renderRoute(<ServiceTrafficPage />, route);
    expect(await screen.findByText("Traefik's metrics are not configured")).toBeInTheDocument();
    await waitFor(() => expect(labels()).toEqual([['Rate limited', 'Denied', 'Asked to sign in', 'Signed in', 'Allowed']]));
  });

  it('says there is no traffic yet', async () => {
    mockFetch([{ path: /\/api\/services\/s1\/traffic\?/, body: emptyTraffic('no_traffic', '') }]);
    renderRoute(<ServiceTrafficPage />, route);
    expect(await screen.findByText('No traffic yet')).toBeInTheDocument();
  });

  it('gives each chart its own reason when only that series is empty', async () => {
    const tr = trafficFixture();
    tr.series.up = tr.series.up.map(() => null);
    tr.series.allowed = tr.series.signedIn = tr.series.challenged = tr.series.denied = tr.series.rateLimited = [];
    mockFetch([{ path: /\/api\/services\/s1\/traffic\?/, body: tr }]);
    renderRoute(<ServiceTrafficPage />, route);
    expect(await screen.findByText('No forward-auth decisions')).toBeInTheDocument();
    expect(screen.getByText('No health checks')).toBeInTheDocument();
    await waitFor(() => expect(FakePlot.live()).toHaveLength(3));
  });

  it('shows a failed request with a retry', async () => {
    mockFetch([{ path: /\/api\/services\/s1\/traffic\?/, status: 500, body: { error: { code: 'internal', message: 'boom' } } }]);
    renderRoute(<ServiceTrafficPage />, route);
    expect(await screen.findByText('Could not load the traffic history')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('says the service is gone on a 404, without a retry, and stops asking', async () => {
    const { calls } = mockFetch([
      { path: /\/api\/services\/s1\/traffic\?/, status: 404, body: { error: { code: 'not_found', message: 'service not found' } } },
    ]);
    renderRoute(<ServiceTrafficPage />, route);
    expect(await screen.findByText('This service no longer exists')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the services' })).toHaveAttribute('href', '/services');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.queryByText('No traffic yet')).not.toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });
});
