import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { ServiceLayout } from './service-layout';

afterEach(() => vi.unstubAllGlobals());

const base = {
  id: 's1',
  name: 'Postgres',
  enabled: true,
  kind: 'tcp',
  fqdns: ['db.example.com'],
  entrypoints: ['postgres'],
  targets: [{ scheme: 'tcp', host: '10.0.0.9', port: 5432 }],
  protection: { basicAuth: true, sso: false, sharedLinks: false, tokens: false, emailCode: false, people: false, exposure: 'everyone', streamGuarded: true },
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
};

function renderHeader(service: object) {
  mockFetch([
    { path: '/api/admin/me', body: { user: { id: 'u1', username: 'admin', role: 'admin' } } },
    { path: '/api/services/s1', body: service },
  ]);
  return renderRoute(<ServiceLayout />, { path: '/services/:id', url: '/services/s1' });
}

const header = () => screen.getByRole('banner');

describe('ServiceLayout header', () => {
  it('says TCP, shows the SNI name as text, and no HTTP exposure badge', async () => {
    renderHeader(base);
    expect(await screen.findByRole('heading', { level: 1, name: 'Postgres' })).toBeInTheDocument();
    expect(within(header()).getByText('TCP')).toHaveClass('badge');
    expect(within(header()).getByText('db.example.com').closest('a')).toBeNull();
    expect(within(header()).queryByText(/without signing in|Everyone/i)).toBeNull();
  });

  it('shows a UDP service’s state and switch though it has no hostnames', async () => {
    renderHeader({ ...base, name: 'DNS', kind: 'udp', fqdns: [] });
    expect(await within(header()).findByText('UDP')).toHaveClass('badge');
    expect(within(header()).getByRole('switch', { name: 'Enabled' })).toBeChecked();
  });

  it('has no kind badge for an HTTP service, whose hostnames open the site', async () => {
    renderHeader({ ...base, name: 'Grafana', kind: 'proxy', fqdns: ['grafana.example.com'] });
    const link = await within(header()).findByRole('link', { name: /grafana\.example\.com/ });
    expect(link).toHaveAttribute('href', 'https://grafana.example.com');
    expect(within(header()).queryByText(/^(TCP|UDP)$/)).toBeNull();
  });
});

describe('ServiceLayout tabs', () => {
  const none = { ...base.protection, basicAuth: false, streamGuarded: false };
  const tabNames = async () => {
    await screen.findByRole('heading', { level: 1, name: 'Postgres' });
    const nav = await screen.findByRole('navigation', { name: 'Service sections' });
    return within(nav)
      .getAllByRole('link')
      .map((a) => a.textContent);
  };

  it('leaves Security and Access out for a TCP or UDP service', async () => {
    renderHeader({ ...base, protection: none });
    expect(await tabNames()).toEqual(['Settings', 'Config preview', 'Traffic']);
  });

  it('keeps them while a protection left by an older release stops the service being routed', async () => {
    renderHeader(base);
    expect(await tabNames()).toEqual(['Settings', 'Config preview', 'Security', 'Access', 'Traffic']);
  });

  it('keeps them while a global access rule stops the service being routed', async () => {
    renderHeader({ ...base, protection: { ...none, streamGuarded: true } });
    expect(await tabNames()).toEqual(['Settings', 'Config preview', 'Security', 'Access', 'Traffic']);
  });

  it('keeps them for an HTTP service', async () => {
    renderHeader({ ...base, kind: 'proxy', protection: none });
    expect(await tabNames()).toEqual(['Settings', 'Config preview', 'Security', 'Access', 'Traffic']);
  });
});
