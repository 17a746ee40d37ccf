import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ManagedState } from '@/lib/api-types';
import { expectReadOnly, mockFetch, renderRoute, viewerMe } from '@/test/utils';
import { ManagedPage } from './managed-page';

afterEach(() => vi.unstubAllGlobals());

const state: ManagedState = {
  config: {
    entrypoints: [{ name: 'websecure', host: '', port: 443, tls: true, resolver: 'le', redirectTo: '' }],
    resolvers: [
      { name: 'le', email: 'ops@example.com', challenge: 'dns', httpEntrypoint: '', dnsProvider: 'cloudflare', dnsResolvers: ['1.1.1.1:53'], propagationDelaySeconds: 0 },
    ],
    logLevel: 'INFO',
  },
  credentials: [{ name: 'CF_DNS_API_TOKEN', updatedAt: '2026-01-01T00:00:00Z' }],
  status: 'applied',
  appliedAt: '2026-01-01T00:00:00Z',
};

describe('ManagedPage', () => {
  it('shows a viewer the static configuration and credentials read-only', async () => {
    mockFetch([
      viewerMe,
      { path: '/api/proxy/managed', body: state },
      { path: '/api/proxy/managed/dns-providers', body: { items: [{ code: 'cloudflare', name: 'Cloudflare', fields: ['CF_DNS_API_TOKEN'], optional: ['CF_API_EMAIL'] }] } },
    ]);
    renderRoute(<ManagedPage />);
    expect(await screen.findByDisplayValue('websecure')).toBeDisabled();
    await expectReadOnly();
    expect(screen.getByText('1.1.1.1:53')).toBeInTheDocument();
    expect(screen.getByLabelText('Traefik log level')).toBeDisabled();
    expect(screen.getByLabelText(/CF_DNS_API_TOKEN/)).toBeDisabled();
  });
});
