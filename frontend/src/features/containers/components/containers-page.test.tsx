import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Container } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { ContainersPage } from './containers-page';
import { placement } from './placement';

const me = { path: '/api/admin/me', body: { user: { id: 'u1', username: 'ann', role: 'admin' } } };

const web: Container = {
  id: 'c1',
  name: 'web',
  image: 'localhost/whoami:1',
  state: 'running',
  health: 'healthy',
  networks: [
    { name: 'apps', address: '10.0.1.5', traefik: false },
    { name: 'proxy', address: '10.0.2.5', traefik: true },
  ],
  ports: [{ private: 8080, public: 0, hostIp: '', protocol: 'tcp' }],
  labels: {},
  suggestion: { network: 'proxy', port: 8080, host: '10.0.2.5', targetPort: 8080, via: 'network', reason: 'Traefik shares network proxy' },
  declared: false,
  labelErrors: [],
  services: [],
};

const labelled: Container = {
  ...web,
  id: 'c2',
  name: 'wiki',
  health: '',
  labels: { 'gatehouse.enable': 'true', 'gatehouse.hostname': 'not a host' },
  declared: true,
  labelErrors: [{ label: 'gatehouse.hostname', message: '"not a host": each label must be 1-63 letters' }],
  services: [{ serviceId: 's9', source: 'labels' }],
};

afterEach(() => vi.unstubAllGlobals());

describe('ContainersPage', () => {
  it('lists containers with their networks, bound services and refused labels', async () => {
    mockFetch([me, { path: '/api/containers', body: { state: 'ok', reason: '', traefikNetworks: ['proxy'], items: [web, labelled] } }]);
    renderRoute(<ContainersPage />);
    const row = (await screen.findByText('wiki')).closest('tr')!;
    expect(row).toHaveTextContent('Managed by labels');
    expect(row).toHaveTextContent('1 label refused');
    expect(row).toHaveTextContent('gatehouse.hostname');
    const first = screen.getByText('web').closest('tr')!;
    expect(first).toHaveTextContent('proxy 10.0.2.5');
    expect(within(first).getByText('Traefik')).toBeInTheDocument();
    expect(first).toHaveTextContent('No service');
  });

  it('says how to connect an engine when none is set', async () => {
    mockFetch([me, { path: '/api/containers', body: { state: 'not_configured', reason: 'PANEL_DOCKER_HOST is not set', traefikNetworks: [], items: [] } }]);
    renderRoute(<ContainersPage />);
    expect(await screen.findByText('Not connected to a container engine')).toBeInTheDocument();
    expect(screen.getByText('PANEL_DOCKER_HOST')).toBeInTheDocument();
  });

  it('creates a service with the target filled in, saying where and why', async () => {
    const { calls } = mockFetch([
      me,
      { path: '/api/containers', body: { state: 'ok', reason: '', traefikNetworks: ['proxy'], items: [web] } },
      { method: 'POST', path: '/api/containers/services', status: 201, body: { service: { id: 's1' }, binding: {}, placement: {} } },
    ]);
    const user = userEvent.setup();
    renderRoute(<ContainersPage />);
    await user.click(await screen.findByRole('button', { name: 'Create a service from web' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Target 10.0.2.5:8080');
    expect(dialog).toHaveTextContent('Traefik shares network proxy with the container');
    await user.selectOptions(within(dialog).getByLabelText('Network'), 'apps');
    expect(dialog).toHaveTextContent('Target 10.0.1.5:8080');
    expect(dialog).toHaveTextContent('works only if Traefik can reach it');
    await user.type(within(dialog).getByLabelText('Host name'), 'web.example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create service' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      container: 'web',
      network: 'apps',
      port: 8080,
      scheme: 'http',
      service: { name: 'web', hostnames: [{ type: 'custom', value: 'web.example.com' }] },
    });
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
  });
});

describe('placement', () => {
  it('prefers a network Traefik shares, then a published port, then any address', () => {
    expect(placement(web, '', 8080)).toMatchObject({ host: '10.0.2.5', via: 'network' });
    const published: Container = { ...web, networks: [{ name: 'bridge', address: '172.17.0.2', traefik: false }], ports: [{ private: 80, public: 8081, hostIp: '0.0.0.0', protocol: 'tcp' }] };
    expect(placement(published, '', 80)).toMatchObject({ host: '', targetPort: 8081, via: 'published' });
    expect(placement(published, '', 8080)).toMatchObject({ host: '172.17.0.2', via: 'unshared_network' });
    expect(placement(web, 'nope', 8080)).toBeUndefined();
  });
});
