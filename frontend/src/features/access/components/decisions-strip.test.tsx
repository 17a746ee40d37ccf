import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePlot } from '@/test/fake-uplot';
import { emptyTraffic, trafficFixture } from '@/test/traffic-fixtures';
import { mockFetch, renderRoute } from '@/test/utils';
import { DecisionsStrip } from './decisions-strip';

beforeEach(() => {
  FakePlot.instances = [];
});
afterEach(() => vi.unstubAllGlobals());

describe('DecisionsStrip', () => {
  it('draws every service’s decisions from the global history', async () => {
    const { calls } = mockFetch([{ path: '/api/traffic?range=24h', body: trafficFixture() }]);
    renderRoute(<DecisionsStrip />);
    await waitFor(() => expect(FakePlot.live()).toHaveLength(1));
    expect(FakePlot.live()[0]!.opts.series.slice(1).map((s) => s.label)).toEqual(['Rate limited', 'Denied', 'Asked to sign in', 'Signed in', 'Allowed']);
    expect(FakePlot.live()[0]!.height).toBe(110);
    expect(calls.map((c) => c.url)).toEqual(['/api/traffic?range=24h']);
  });

  it('reads one service’s history for a service', async () => {
    const { calls } = mockFetch([{ path: /\/api\/services\/s1\/traffic/, body: trafficFixture() }]);
    renderRoute(<DecisionsStrip serviceId="s1" />);
    await waitFor(() => expect(FakePlot.live()).toHaveLength(1));
    expect(calls.map((c) => c.url)).toEqual(['/api/services/s1/traffic?range=24h']);
  });

  it('draws the panel’s decisions even without Traefik’s metrics', async () => {
    mockFetch([{ path: '/api/traffic?range=24h', body: trafficFixture({ state: 'no_metrics', reason: 'off' }) }]);
    renderRoute(<DecisionsStrip />);
    await waitFor(() => expect(FakePlot.live()).toHaveLength(1));
  });

  it('says why it is empty', async () => {
    mockFetch([{ path: '/api/traffic?range=24h', body: emptyTraffic('no_traffic', 'nothing recorded yet') }]);
    renderRoute(<DecisionsStrip />);
    expect(await screen.findByText('No traffic yet')).toBeInTheDocument();
    expect(screen.getByText(/Charts fill in once requests go through Traefik/)).toBeInTheDocument();
  });

  it('says when the service had requests but no decisions', async () => {
    const tr = trafficFixture();
    tr.series.allowed = tr.series.signedIn = tr.series.challenged = tr.series.denied = tr.series.rateLimited = [];
    mockFetch([{ path: '/api/traffic?range=24h', body: tr }]);
    renderRoute(<DecisionsStrip />);
    expect(await screen.findByText('No forward-auth decisions')).toBeInTheDocument();
  });
});
