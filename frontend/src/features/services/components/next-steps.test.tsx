import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Service } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { ServiceEditPage } from './service-edit-page';

afterEach(() => vi.unstubAllGlobals());

const wiki = {
  id: 's1',
  name: 'Wiki',
  domainId: null,
  hostnames: [{ type: 'custom', value: 'wiki.example.com' }],
  fqdns: ['wiki.example.com'],
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
} as Service;

const routes = [
  { path: '/api/services/s1', body: wiki },
  { path: '/api/domains', body: { items: [] } },
  { path: '/api/services', body: { items: [wiki] } },
  { path: '/api/config', body: { adminDomain: '', defaultEntrypoints: ['websecure'], globalMiddlewares: [], defaultLifetimeSeconds: 0 } },
];

describe('ServiceEditPage after creating', () => {
  it('says what to do next: protect it, test it', async () => {
    mockFetch(routes);
    renderRoute(<ServiceEditPage />, { path: '/services/:id', url: '/services/s1?created=1' });
    const steps = await screen.findByTestId('next-steps');
    expect(within(steps).getByRole('link', { name: 'Protect it' })).toHaveAttribute('href', '/services/s1/security');
    expect(within(steps).getByRole('link', { name: /open https:\/\/wiki\.example\.com/ })).toHaveAttribute('href', 'https://wiki.example.com');
    expect(within(steps).getByRole('link', { name: 'check who gets in' })).toHaveAttribute('href', '/services/s1/access');
  });

  it('shows no next steps on a later visit', async () => {
    mockFetch(routes);
    renderRoute(<ServiceEditPage />, { path: '/services/:id', url: '/services/s1' });
    await screen.findByLabelText('Name');
    expect(screen.queryByTestId('next-steps')).toBeNull();
  });
});
