import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ManagedState } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { CredentialsCard } from './credentials-card';

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
});
