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
  rejection: null,
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

const base: ManagedState = {
  config: { entrypoints: [], resolvers: [], logLevel: 'INFO' },
  credentials: [],
  status: 'waiting',
  appliedAt: null,
  rejection: null,
};

function show(state: ManagedState) {
  mockFetch([
    { path: '/api/proxy/managed', body: state },
    { path: '/api/proxy/managed/dns-providers', body: { items: [] } },
  ]);
  return renderRoute(<ManagedPage />);
}

describe('ManagedPage status', () => {
  it('waits for the first report without asking for a restart', async () => {
    show(base);
    expect(await screen.findByText("Waiting for the wrapper's first report")).toBeInTheDocument();
    expect(screen.getByText('Waiting for the wrapper')).toBeInTheDocument();
    expect(screen.queryByText(/restart (the )?Traefik/i)).toBeNull();
  });

  it('says a change is pending and that the wrapper restarts Traefik itself', async () => {
    show({ ...base, status: 'pending', appliedAt: '2026-01-01T00:00:00Z' });
    expect(await screen.findByText('Change pending', { selector: '.alert-title' })).toBeInTheDocument();
    expect(screen.getByText(/restarts Traefik itself/)).toBeInTheDocument();
  });

  it("shows why Traefik rejected the configuration", async () => {
    show({
      ...base,
      status: 'rejected',
      appliedAt: '2026-01-01T00:00:00Z',
      rejection: { at: '2026-01-01T00:00:00Z', configHash: 'c1', secretsHash: 's1', reason: 'Traefik exited with code 1 within seconds of starting with it' },
    });
    expect(await screen.findByText('Rejected by Traefik', { selector: '.alert-title' })).toBeInTheDocument();
    expect(screen.getByText(/exited with code 1/)).toBeInTheDocument();
  });

  it('shows applied', async () => {
    show({ ...base, status: 'applied', appliedAt: '2026-01-01T00:00:00Z' });
    expect(await screen.findByText(/^Applied/)).toBeInTheDocument();
  });
});

describe('ManagedPage with managed mode off', () => {
  it('says how to turn it on without asking for the managed state', async () => {
    const { calls } = mockFetch([{ path: '/api/system', body: { version: '1.0.0', managed: false, setupRequired: false, localPasswords: true, passkeys: false, adminSso: false } }]);
    renderRoute(<ManagedPage />);
    expect(await screen.findByText('Managed mode is off')).toBeInTheDocument();
    expect(screen.getByText(/PANEL_MANAGED=true/)).toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/api/proxy/managed'))).toBe(false);
  });
});
