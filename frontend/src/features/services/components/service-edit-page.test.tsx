import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Domain, Service } from '@/lib/api-types';
import { mockFetch, renderRoute, type MockRoute } from '@/test/utils';
import { ServiceEditPage } from './service-edit-page';

const domain: Domain = {
  id: 'd1',
  name: 'Home',
  domain: 'example.com',
  certResolver: 'letsencrypt',
  wildcard: false,
  isDefault: true,
  certConfigs: [],
  https: { redirect: true, hsts: { maxAge: 31536000, includeSubdomains: false, preload: false } },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

const existing: Service = {
  id: 's9',
  name: 'Grafana',
  domainId: 'd1',
  hostnames: [{ type: 'subdomain', value: 'grafana' }],
  fqdns: ['grafana.example.com'],
  targets: [{ scheme: 'http', host: '10.0.0.5', port: 3000 }],
  passHostHeader: true,
  insecureSkipVerify: false,
  entrypoints: [],
  rules: [],
  middlewares: [],
  headers: {},
  https: { redirect: null, hsts: null },
  kind: 'proxy',
  redirect: null,
  maintenance: { enabled: false, message: '' },
  launcher: { hidden: false, description: '', icon: '', group: '', order: 0 },
  loadBalancer: { healthCheck: null, sticky: null, timeouts: { dialSeconds: 0, responseHeaderSeconds: 0, idleConnSeconds: 0 } },
  enabled: true,
  expiry: { type: 'never' },
  expiresAt: null,
  enabledAt: '2026-01-01T00:00:00Z',
  protection: { basicAuth: false, sso: false, sharedLinks: false, tokens: false, emailCode: false, people: false, exposure: 'everyone', streamGuarded: false },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

const base: MockRoute[] = [
  { path: '/api/domains', body: { items: [domain] } },
  { path: '/api/services', body: { items: [existing] } },
  { path: '/api/config', body: { adminDomain: '', defaultEntrypoints: ['websecure'], globalMiddlewares: [], defaultLifetimeSeconds: 0 } },
  { path: '/api/proxy/entrypoints', body: { configured: true, reachable: true, items: [{ name: 'web', address: ':80' }, { name: 'websecure', address: ':443' }] } },
  { path: '/api/proxy/middlewares', body: { configured: false, reachable: false, items: [] } },
];

afterEach(() => vi.unstubAllGlobals());

const me = { path: '/api/admin/me', body: { user: { id: 'u1', username: 'ann', role: 'admin' } } };
const binding = (source: 'panel' | 'labels', state: 'running' | 'stopped' | 'gone' = 'running') => ({
  path: '/api/containers/bindings',
  body: { items: [{ serviceId: 's9', container: 'grafana', network: 'proxy', port: 3000, source, state, address: '10.0.0.5:3000', labelError: '', updatedAt: '2026-01-01T00:00:00Z' }] },
});

describe('ServiceEditPage, bound to a container', () => {
  it('shows a service its labels declare read-only, and detaches it', async () => {
    const { calls } = mockFetch([...base, me, { path: '/api/services/s9', body: existing }, binding('labels'), { method: 'DELETE', path: '/api/containers/bindings/s9', status: 204 }]);
    const user = userEvent.setup();
    renderRoute(<ServiceEditPage />, { path: '/services/:id', url: '/services/s9' });
    const alert = (await screen.findByText('Managed by the labels of container grafana')).closest('[role]') ?? document.body;
    expect(screen.getByDisplayValue('Grafana')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
    await user.click(within(alert as HTMLElement).getByRole('button', { name: 'Detach' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/containers/bindings/s9')).toBe(true));
  });

  it('keeps a service made from a container editable, saying its container stopped', async () => {
    mockFetch([...base, me, { path: '/api/services/s9', body: existing }, binding('panel', 'stopped')]);
    renderRoute(<ServiceEditPage />, { path: '/services/:id', url: '/services/s9' });
    expect(await screen.findByText('Container grafana is stopped')).toBeInTheDocument();
    expect(screen.getByDisplayValue('Grafana')).toBeEnabled();
  });
});
