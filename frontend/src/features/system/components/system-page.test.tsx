import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PanelSystemInfo, ProxyStatus } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { SystemPage } from './system-page';

afterEach(() => vi.unstubAllGlobals());

const info: PanelSystemInfo = {
  version: '1.4.0',
  startedAt: '2026-01-01T00:00:00Z',
  uptimeSeconds: 93_784,
  dataDir: '/var/lib/gatehouse',
  managed: false,
  database: { engine: 'sqlite', sizeBytes: 3_145_728 },
  urls: { public: 'https://panel.example.com', internal: 'http://127.0.0.1:8080', internalSet: false, forwardAuth: 'https://panel.example.com', portal: '' },
};

const status: ProxyStatus = {
  poll: {
    polled: true,
    last: { at: '2026-01-01T00:00:00Z', remote: '172.18.0.3', etag: '"a"', code: 304 },
    ageSeconds: 2,
    intervalSeconds: 5,
    intervalMeasured: true,
    stopped: false,
    current: true,
    behind: 0,
    behindKnown: true,
    currentEtag: '"a"',
    configUrl: 'http://gatehouse:8080',
    snippet: '',
    setups: [{ variant: 'docker', providerUrl: 'http://gatehouse:8080', traefikYml: 'providers: {}\n', env: 'PANEL_PROXY_API_URL=http://traefik:8080\n', warnings: [] }],
    recent: [],
  },
  traefik: { configured: true, reachable: false, error: 'cannot reach Traefik API at http://traefik:8080: connection refused' },
  services: [],
};

describe('SystemPage', () => {
  it('shows the version, uptime, data directory, database size, addresses and Traefik, with a retry', async () => {
    mockFetch([
      { path: '/api/system/info', body: info },
      { path: '/api/proxy/status', body: status },
      { path: '/api/cluster', body: { engine: 'sqlite', replica: 'gate-1', replicas: [] } },
      {
        path: '/api/proxy/status/check',
        body: {
          state: 'failed',
          summary: 'Traefik fetches the configuration, so your services are served.',
          at: '2026-01-01T00:00:00Z',
          items: [
            { name: 'provider', state: 'ok', answer: 'Traefik fetched the configuration just now.', hint: '', detail: '' },
            { name: 'api', state: 'failed', answer: "Traefik's API does not answer at http://traefik:8080.", hint: 'Check api.insecure.', detail: 'connection refused' },
            { name: 'metrics', state: 'ok', answer: 'Metrics answer.', hint: '', detail: '' },
          ],
        },
      },
    ]);
    renderRoute(<SystemPage />, { path: '/system', url: '/system' });
    const panel = await screen.findByTestId('system-panel');
    expect(panel).toHaveTextContent('v1.4.0');
    expect(panel).toHaveTextContent('1d 2h');
    expect(panel).toHaveTextContent('/var/lib/gatehouse');
    expect(panel).toHaveTextContent('SQLite, 3 MB');
    const urls = screen.getByTestId('system-urls');
    expect(urls).toHaveTextContent('https://panel.example.com');
    expect(urls).toHaveTextContent('Set PANEL_INTERNAL_URL');
    expect(within(urls).getByText('Not set')).toBeInTheDocument();
    const traefik = await screen.findByTestId('system-traefik');
    expect(await within(traefik).findByText('Traefik polls')).toBeInTheDocument();
    expect(within(traefik).getByText('Not answering')).toBeInTheDocument();
    // The cause is folded away, shown once.
    expect(screen.getAllByText(/connection refused/)).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Test Traefik connection' }));
    expect(await screen.findByText("Traefik's API does not answer at http://traefik:8080.")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Test again' })).toBeInTheDocument();
  });
});
