import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
  setups: [
    {
      variant: 'docker',
      providerUrl: 'http://gatehouse:8080',
      traefikYml: 'providers:\n  http:\n    endpoint: "http://gatehouse:8080/api/proxy/config"\napi:\n  insecure: true\nmetrics:\n  prometheus: {}\n',
      env: 'PANEL_INTERNAL_URL=http://gatehouse:8080\nPANEL_PROXY_API_URL=http://traefik:8080\n',
      warnings: [],
    },
    { variant: 'host', providerUrl: 'http://127.0.0.1:8080', traefikYml: 'providers: {}\n', env: 'PANEL_PROXY_API_URL=http://127.0.0.1:8081\n', warnings: [] },
  ],
  recent: [],
};
const status = (p: Partial<ProxyStatus['poll']>) => ({ poll: { ...poll, ...p }, traefik: { configured: false, reachable: false }, services: [] });

afterEach(() => vi.unstubAllGlobals());

describe('TraefikSetup', () => {
  it('gives a complete traefik.yml and the panel variables, and waits for the first poll', async () => {
    mockFetch([{ path: '/api/proxy/status', body: status({}) }]);
    renderRoute(<RuntimeBanner status={{ configured: false, reachable: false, error: 'set PANEL_PROXY_API_URL' }} />);
    expect(screen.getByText("Traefik's API is not connected")).toBeInTheDocument();
    expect(screen.getByText(/set PANEL_PROXY_API_URL/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('setup-provider-snippet')).toHaveTextContent('http://gatehouse:8080/api/proxy/config'));
    expect(screen.getByTestId('setup-provider-snippet')).toHaveTextContent('prometheus');
    expect(screen.getByTestId('poll-check')).toHaveAttribute('data-state', 'waiting');
    expect(screen.getByTestId('setup-api-env')).toHaveTextContent('PANEL_PROXY_API_URL=http://traefik:8080');
    expect(screen.getByRole('button', { name: 'Copy traefik.yml' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy variables' })).toBeInTheDocument();
  });

  it('tests the connection and folds the cause away', async () => {
    mockFetch([
      { path: '/api/proxy/status', body: status({}) },
      {
        path: '/api/proxy/status/check',
        body: {
          state: 'failed',
          summary: 'Traefik is not fetching the panel configuration.',
          at: '2026-01-01T00:00:00Z',
          items: [
            { name: 'provider', state: 'failed', answer: 'Traefik has not fetched the configuration.', hint: 'Add the HTTP provider.', detail: '' },
            { name: 'api', state: 'failed', answer: "Traefik's API does not answer at http://traefik:8080.", hint: 'Check api.insecure.', detail: 'dial tcp 10.0.0.3:8080: connect: connection refused' },
            { name: 'metrics', state: 'warning', answer: 'Metrics are not read.', hint: 'Enable metrics.prometheus.', detail: '' },
          ],
        },
      },
    ]);
    renderRoute(<RuntimeBanner status={{ configured: false, reachable: false, error: '' }} />);
    await userEvent.click(screen.getByRole('button', { name: 'Test Traefik connection' }));
    await waitFor(() => expect(screen.getByTestId('connection-check')).toHaveAttribute('data-state', 'failed'));
    expect(screen.getByText("Traefik's API does not answer at http://traefik:8080.")).toBeInTheDocument();
    const details = screen.getByText('Details').closest('details');
    expect(details).not.toHaveAttribute('open');
    expect(screen.getAllByText(/connection refused/)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Test again' })).toBeInTheDocument();
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
    expect(screen.getByTestId('poll-check')).toHaveTextContent('last fetch just now');
  });

  it('says when polls stopped', async () => {
    mockFetch([{ path: '/api/proxy/status', body: status({ polled: true, stopped: true, ageSeconds: 300, last: { at: '2026-01-01T00:00:00Z', remote: '', etag: '"a"', code: 304 } }) }]);
    renderRoute(<RuntimeBanner status={{ configured: false, reachable: false, error: '' }} />);
    await waitFor(() => expect(screen.getByTestId('poll-check')).toHaveAttribute('data-state', 'stopped'));
  });
});
