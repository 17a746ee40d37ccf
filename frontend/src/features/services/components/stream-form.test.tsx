import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Service } from '@/lib/api-types';
import { mockFetch, renderRoute, type MockRoute } from '@/test/utils';
import { ServiceForm } from './service-form';

const base: MockRoute[] = [
  { path: '/api/domains', body: { items: [] } },
  { path: '/api/services', body: { items: [] } },
  { path: '/api/config', body: { adminDomain: '', defaultEntrypoints: ['websecure'], globalMiddlewares: [], defaultLifetimeSeconds: 0 } },
  {
    path: '/api/proxy/entrypoints',
    body: {
      configured: true,
      reachable: true,
      items: [
        { name: 'websecure', address: ':443', protocol: 'tcp' },
        { name: 'postgres', address: ':5432', protocol: 'tcp' },
        { name: 'dns', address: ':53/udp', protocol: 'udp' },
      ],
    },
  },
  { path: '/api/proxy/middlewares', body: { configured: false, reachable: false, items: [] } },
];

afterEach(() => vi.unstubAllGlobals());

async function fillTarget(user: ReturnType<typeof userEvent.setup>, host: string, port: string) {
  await user.type(screen.getByLabelText('Target 1 host'), host);
  const p = screen.getByLabelText('Target 1 port');
  await user.clear(p);
  await user.type(p, port);
}

describe('ServiceForm: TCP and UDP', () => {
  it('creates a catch-all TCP service with an allow list on its own entrypoint', async () => {
    const { calls } = mockFetch([...base, { method: 'POST', path: '/api/services', status: 201, body: {} as Service }]);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await user.type(await screen.findByLabelText('Name'), 'Database');
    await user.click(screen.getByRole('radio', { name: 'TCP' }));
    expect(await screen.findByText('Host names (SNI)')).toBeInTheDocument();
    // Without an entrypoint, the form says so (the defaults are HTTP's).
    await user.click(screen.getByRole('button', { name: 'Remove hostname 1' }));
    await user.selectOptions(screen.getByLabelText('TLS'), 'none');
    await fillTarget(user, '10.0.0.5', '5432');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    expect(await screen.findByText('Name the entrypoint this service listens on.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(screen.getByLabelText('Allowed addresses'), '192.168.1.0/24{Enter}');
    await user.clear(screen.getByLabelText('Simultaneous connections per client'));
    await user.type(screen.getByLabelText('Simultaneous connections per client'), '20');
    await user.click(screen.getByRole('tab', { name: /^TLS and HTTPS/ }));
    await user.type(screen.getByLabelText('Entrypoints'), 'postgres{Enter}');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({
      name: 'Database',
      kind: 'tcp',
      hostnames: [],
      entrypoints: ['postgres'],
      targets: [{ scheme: 'tcp', host: '10.0.0.5', port: 5432 }],
      tcp: { tls: 'none', proxyProtocol: 0, allowList: ['192.168.1.0/24'], maxConnections: 20 },
      rules: [],
      middlewares: [],
      headers: {},
    });
  });

  it('refuses SNI host names without TLS, and sends a UDP service without host names', async () => {
    const { calls } = mockFetch([...base, { method: 'POST', path: '/api/services', status: 201, body: {} as Service }]);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await user.type(await screen.findByLabelText('Name'), 'Git');
    await user.click(screen.getByRole('radio', { name: 'TCP' }));
    await user.type(await screen.findByLabelText('Hostname 1'), 'git.example.com');
    await user.selectOptions(screen.getByLabelText('TLS'), 'none');
    await fillTarget(user, '10.0.0.7', '22');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    expect(await screen.findByText(/Host names need TLS/)).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'UDP' }));
    await waitFor(() => expect(screen.queryByText('Host names (SNI)')).not.toBeInTheDocument());
    await user.click(screen.getByRole('tab', { name: /^TLS and HTTPS/ }));
    await user.type(screen.getByLabelText('Entrypoints'), 'dns{Enter}');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      kind: 'udp',
      hostnames: [],
      entrypoints: ['dns'],
      targets: [{ scheme: 'udp', host: '10.0.0.7', port: 22 }],
      tcp: null,
    });
  });
});
