import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ManagedState } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { CredentialsCard } from './credentials-card';
import { credentialNameIssue } from './managed-schema';

afterEach(() => vi.unstubAllGlobals());

const state: ManagedState = {
  config: {
    entrypoints: [],
    resolvers: [
      { name: 'le', email: '', challenge: 'dns', httpEntrypoint: '', dnsProvider: 'cloudflare', dnsResolvers: [], propagationDelaySeconds: 0 },
    ],
    logLevel: 'INFO',
  },
  credentials: [{ name: 'OLD_TOKEN', updatedAt: '2026-01-01T00:00:00Z' }],
  status: 'applied',
  appliedAt: '2026-01-01T00:00:00Z',
  rejection: null,
};

describe('CredentialsCard', () => {
  it("lists the provider's fields, never shows values, and sends only what changed", async () => {
    const { calls } = mockFetch([
      { path: '/api/proxy/managed/dns-providers', body: { items: [{ code: 'cloudflare', name: 'Cloudflare', fields: ['CF_DNS_API_TOKEN'], optional: ['CF_API_EMAIL'] }] } },
      { method: 'PUT', path: '/api/proxy/managed/secrets', body: { credentials: [] } },
    ]);
    const user = userEvent.setup();
    renderRoute(<CredentialsCard state={state} />);
    const token = await screen.findByLabelText(/CF_DNS_API_TOKEN/);
    expect(screen.getByText('not set')).toBeInTheDocument();
    expect(screen.getByText('set')).toBeInTheDocument();
    expect(screen.getByLabelText(/OLD_TOKEN/)).toHaveValue('');
    await user.type(token, 'abc123');
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.getByText('will be removed')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save credentials' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ upsert: { CF_DNS_API_TOKEN: 'abc123' }, remove: ['OLD_TOKEN'] });
  });

  it('refuses the names the server refuses, from the rules in the API document', async () => {
    mockFetch([{ path: '/api/proxy/managed/dns-providers', body: { items: [] } }]);
    const user = userEvent.setup();
    renderRoute(<CredentialsCard state={state} />);
    const name = await screen.findByLabelText(/Add another variable/);
    await user.type(name, 'ld_preload');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Names starting with LD_ are reserved')).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'AWS_REGION');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByLabelText(/AWS_REGION/)).toBeInTheDocument();
  });

  it.each([
    ['CF_DNS_API_TOKEN', null],
    ['PATH', 'PATH is reserved'],
    ['TRAEFIK_LOG_LEVEL', 'Names starting with TRAEFIK_ are reserved'],
    ['1ABC', 'Use A-Z, 0-9 and _, not starting with a digit'],
    ['A'.repeat(129), 'At most 128 characters'],
  ])('credential name %s → %s', (n, want) => {
    expect(credentialNameIssue(n)).toBe(want);
  });
});
