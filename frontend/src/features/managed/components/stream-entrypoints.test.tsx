import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ManagedState } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { ManagedPage } from './managed-page';

afterEach(() => vi.unstubAllGlobals());

const state: ManagedState = {
  config: { entrypoints: [{ name: 'websecure', host: '', port: 443, tls: true, resolver: '', redirectTo: '' }], resolvers: [], logLevel: 'INFO' },
  credentials: [],
  status: 'applied',
  appliedAt: '2026-01-01T00:00:00Z',
  rejection: null,
};

describe('Managed entrypoints for TCP and UDP services', () => {
  it('adds a UDP entrypoint, refusing TLS on it, and saves its protocol', async () => {
    const { calls } = mockFetch([
      { path: '/api/proxy/managed', body: state },
      { method: 'PUT', path: '/api/proxy/managed', body: state },
      { path: '/api/proxy/managed/dns-providers', body: { items: [] } },
    ]);
    const user = userEvent.setup();
    renderRoute(<ManagedPage />);
    await screen.findByDisplayValue('websecure');
    await user.click(screen.getByRole('button', { name: 'Add entrypoint' }));
    const names = screen.getAllByLabelText('Name');
    await user.type(names[names.length - 1]!, 'dns');
    const ports = screen.getAllByLabelText('Port');
    await user.clear(ports[ports.length - 1]!);
    await user.type(ports[ports.length - 1]!, '53');
    const protocols = screen.getAllByLabelText('Protocol');
    await user.selectOptions(protocols[protocols.length - 1]!, 'udp');
    await user.click(screen.getByRole('button', { name: 'Save static configuration' }));
    expect(await screen.findByText(/has no TLS of its own/)).toBeInTheDocument();
    const tls = screen.getAllByLabelText('TLS on this entrypoint');
    await user.click(tls[tls.length - 1]!);
    await user.click(screen.getByRole('button', { name: 'Save static configuration' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!.body as { entrypoints: { name: string; protocol: string; port: number; tls: boolean }[] };
    expect(put.entrypoints[1]).toMatchObject({ name: 'dns', port: 53, protocol: 'udp', tls: false });
  });
});
