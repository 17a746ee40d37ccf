import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProxyStatus } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { RuntimeBanner } from '../ui/states';

const poll: ProxyStatus['poll'] = {
  polled: false,
  last: null,
  ageSeconds: 0,
  intervalSeconds: 5,
  intervalMeasured: false,
  stopped: false,
  current: false,
  behind: 0,
  behindKnown: false,
  currentEtag: '"a"',
  configUrl: 'http://10.0.0.2:8080',
  snippet: 'providers:\n  http:\n    endpoint: "http://10.0.0.2:8080/api/proxy/config"\n',
  recent: [],
};
const status = (p: Partial<ProxyStatus['poll']>) => ({ poll: { ...poll, ...p }, traefik: { configured: false, reachable: false }, services: [] });

afterEach(() => vi.unstubAllGlobals());

describe('TraefikSetup', () => {
  it('gives the provider and API snippets and waits for the first poll', async () => {
    mockFetch([{ path: '/api/proxy/status', body: status({}) }]);
    renderRoute(<RuntimeBanner status={{ configured: false, reachable: false, error: 'set PANEL_PROXY_API_URL' }} />);
    expect(screen.getByText("Traefik's API is not connected")).toBeInTheDocument();
    expect(screen.getByText(/set PANEL_PROXY_API_URL/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('setup-provider-snippet')).toHaveTextContent('http://10.0.0.2:8080/api/proxy/config'));
    expect(screen.getByTestId('poll-check')).toHaveAttribute('data-state', 'waiting');
    expect(screen.getByTestId('setup-api-snippet')).toHaveTextContent('insecure: true');
    expect(screen.getByTestId('setup-api-env')).toHaveTextContent('PANEL_PROXY_API_URL=http://traefik:8080');
    expect(screen.getByRole('button', { name: 'Copy provider snippet' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy API snippet' })).toBeInTheDocument();
  });

  it('turns green once Traefik polls', async () => {
    mockFetch([
      {
        path: '/api/proxy/status',
        body: status({ polled: true, ageSeconds: 2, last: { at: '2026-01-01T00:00:00Z', remote: '10.0.0.9', etag: '"a"', code: 200 } }),
      },
    ]);
    renderRoute(<RuntimeBanner status={{ configured: false, reachable: false, error: '' }} />);
    await waitFor(() => expect(screen.getByTestId('poll-check')).toHaveAttribute('data-state', 'ok'));
    expect(screen.getByTestId('poll-check')).toHaveTextContent('Traefik polls');
    expect(screen.getByTestId('poll-check')).toHaveTextContent('2 s ago');
  });

  it('says when polls stopped', async () => {
    mockFetch([{ path: '/api/proxy/status', body: status({ polled: true, stopped: true, ageSeconds: 300, last: { at: '2026-01-01T00:00:00Z', remote: '', etag: '"a"', code: 304 } }) }]);
    renderRoute(<RuntimeBanner status={{ configured: false, reachable: false, error: '' }} />);
    await waitFor(() => expect(screen.getByTestId('poll-check')).toHaveAttribute('data-state', 'stopped'));
  });
});
