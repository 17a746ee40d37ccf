import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { servicesTrafficFixture } from '@/test/traffic-fixtures';
import { mockFetch, renderRoute } from '@/test/utils';
import { isProtected, matchesKind, ServicesPage } from './services-page';

afterEach(() => vi.unstubAllGlobals());

const service = (id: string, name: string) => ({
  id,
  name,
  enabled: true,
  kind: 'proxy',
  fqdns: [`${name.toLowerCase()}.example.com`],
  targets: [{ scheme: 'http', host: '10.0.0.2', port: 8080 }],
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
});

describe('ServicesPage traffic column', () => {
  it('draws every row’s sparkline from one request for every service', async () => {
    const { calls } = mockFetch([
      { path: '/api/services', body: { items: [service('s1', 'Nextcloud'), service('s2', 'Grafana'), service('s9', 'New')] } },
      { path: '/api/traffic/services?range=24h&points=24', body: servicesTrafficFixture() },
    ]);
    renderRoute(<ServicesPage />);
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getAllByTestId('service-traffic')).toHaveLength(2));
    expect(within(table).getByRole('img', { name: 'Nextcloud: 5,000 requests in the last 24 hours' })).toBeInTheDocument();
    expect(within(table).getByText('800/24 h')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.includes('/traffic'))).toHaveLength(1);
  });
});

const stream = (id: string, name: string, kind: 'tcp' | 'udp', fqdns: string[], entrypoints: string[]) => ({
  ...service(id, name),
  kind,
  fqdns,
  entrypoints,
  targets: [{ scheme: kind, host: '10.0.0.9', port: 5432 }],
});
const web = { ...service('s1', 'Grafana'), entrypoints: [], protection: { basicAuth: true, sso: false, sharedLinks: false, tokens: false, emailCode: false, people: false, exposure: 'none' } };
const moved = { ...service('s2', 'Old'), kind: 'redirect', redirect: { url: 'https://new.example.com/', permanent: true, keepPath: false } };
const db = stream('s3', 'Postgres', 'tcp', ['db.example.com'], ['postgres']);
const dns = stream('s4', 'DNS', 'udp', [], ['dns', 'dns6']);

function renderList(items: unknown[], url = '/services') {
  mockFetch([{ path: '/api/services', body: { items } }]);
  return renderRoute(<ServicesPage />, { path: '/services', url });
}

const rowOf = (table: HTMLElement, name: string) => within(table).getByRole('row', { name: new RegExp(name) });

describe('ServicesPage kinds', () => {
  it('badges TCP and UDP services beside their name, and nothing beside HTTP ones', async () => {
    renderList([web, moved, db, dns]);
    const table = await screen.findByRole('table');
    expect(within(rowOf(table, 'Postgres')).getByText('TCP')).toHaveClass('badge');
    expect(within(rowOf(table, 'DNS')).getByText('UDP')).toHaveClass('badge');
    for (const name of ['Grafana', 'Old']) {
      expect(within(rowOf(table, name)).queryByText(/^(TCP|UDP)$/)).toBeNull();
    }
    // The link keeps the service's name alone.
    expect(within(rowOf(table, 'Postgres')).getByRole('link', { name: 'Postgres' })).toHaveAttribute('href', '/services/s3');
  });

  it('shows a dash, not HTTP figures, in the columns that are about HTTP', async () => {
    renderList([web, db, dns]);
    const table = await screen.findByRole('table');
    const tcp = rowOf(table, 'Postgres');
    // Access and traffic; a TCP service's backends can still be probed with a TCP connect.
    expect(within(tcp).getAllByText('Only for HTTP services')).toHaveLength(2);
    expect(within(tcp).queryByText('public')).toBeNull();
    // The SNI name is text, not a link to a web page; the entrypoint says where it listens.
    expect(within(tcp).getByText('db.example.com').closest('a')).toBeNull();
    expect(within(tcp).getByText('Entrypoint: postgres')).toBeInTheDocument();
    const udp = rowOf(table, 'DNS');
    expect(within(udp).getAllByText('Only for HTTP services')).toHaveLength(3);
    expect(within(udp).getByText('Entrypoints: dns, dns6')).toBeInTheDocument();
    const http = rowOf(table, 'Grafana');
    expect(within(http).queryByText('Only for HTTP services')).toBeNull();
    expect(within(http).getByRole('link', { name: 'grafana.example.com' })).toHaveAttribute('href', 'https://grafana.example.com');
  });

  it.each([
    ['its own HTTP protection', { ...web.protection, basicAuth: true, streamGuarded: true }],
    ['a global access rule', { ...web.protection, basicAuth: false, exposure: 'everyone', streamGuarded: true }],
  ])('says a TCP service guarded by %s is not routed, rather than a dash', async (_, protection) => {
    renderList([{ ...db, protection }]);
    const table = await screen.findByRole('table');
    const badge = within(rowOf(table, 'Postgres')).getByText('Not routed');
    expect(badge.getAttribute('title')).toMatch(/left out of Traefik's configuration/);
    // Traffic alone is a dash.
    expect(within(rowOf(table, 'Postgres')).getAllByText('Only for HTTP services')).toHaveLength(1);
  });

  it('filters by kind, HTTP taking proxies and redirects, and keeps the filter in the URL', async () => {
    const user = userEvent.setup();
    const { router } = renderList([web, moved, db, dns]);
    const table = await screen.findByRole('table');
    const kinds = screen.getByRole('group', { name: 'Filter by kind' });
    expect(within(kinds).getByRole('button', { name: 'All kinds' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(within(kinds).getByRole('button', { name: 'TCP' }));
    expect(router.state.location.search).toBe('?kind=tcp');
    expect(within(table).getAllByRole('link', { name: /^(Grafana|Old|Postgres|DNS)$/ }).map((a) => a.textContent)).toEqual(['Postgres']);
    expect(screen.getByText('Showing 1 of 4 services.')).toBeInTheDocument();

    await user.click(within(kinds).getByRole('button', { name: 'HTTP' }));
    const names = within(screen.getByRole('table'))
      .getAllByRole('link', { name: /^(Grafana|Old|Postgres|DNS)$/ })
      .map((a) => a.textContent);
    expect(names).toEqual(['Grafana', 'Old']);
  });

  it('says which kind found nothing', async () => {
    renderList([web, db], '/services?kind=udp&status=disabled');
    expect(await screen.findByText('No matching services')).toBeInTheDocument();
    expect(screen.getByText('Nothing matches “” among UDP services with status Disabled.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Filters (2)' })).toBeInTheDocument();
  });

  it('offers no kind filter while every service is HTTP', async () => {
    renderList([web, moved]);
    await screen.findByRole('table');
    expect(screen.getByRole('group', { name: 'Filter by status' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Filter by kind' })).toBeNull();
  });
});

describe('matchesKind', () => {
  it.each([
    ['proxy', 'http', true],
    ['redirect', 'http', true],
    ['tcp', 'http', false],
    ['tcp', 'tcp', true],
    ['udp', 'tcp', false],
    ['udp', 'udp', true],
    ['udp', 'all', true],
  ] as const)('%s with filter %s -> %s', (kind, filter, want) => expect(matchesKind({ kind }, filter)).toBe(want));
});

describe('protect button', () => {
  it('is offered for HTTP services only', async () => {
    renderList([web, db, dns]);
    const table = await screen.findByRole('table');
    expect(within(rowOf(table, 'Grafana')).getByRole('link', { name: /security/i })).toHaveAttribute('href', '/services/s1/security');
    for (const name of ['Postgres', 'DNS']) {
      expect(within(rowOf(table, name)).queryByRole('link', { name: /security/i })).toBeNull();
    }
  });
});

describe('isProtected', () => {
  const none = { basicAuth: false, sso: false, sharedLinks: false, tokens: false, emailCode: false, people: false, exposure: 'everyone' as const };
  it.each([
    ['HTTP with basic auth', { kind: 'proxy', protection: { ...none, basicAuth: true } }, true],
    ['HTTP with people', { kind: 'proxy', protection: { ...none, people: true } }, true],
    ['HTTP with e-mail codes', { kind: 'proxy', protection: { ...none, emailCode: true } }, true],
    ['HTTP open', { kind: 'proxy', protection: none }, false],
    ['TCP with an allow list', { kind: 'tcp', protection: none, tcp: { tls: 'none', allowList: ['10.0.0.0/8'], maxConnections: 0, proxyProtocol: 0 } }, true],
    ['TCP without one', { kind: 'tcp', protection: none, tcp: { tls: 'none', allowList: [], maxConnections: 0, proxyProtocol: 0 } }, false],
    // A protection left by an older release does not guard it: it leaves the service unrouted.
    ['TCP with a leftover protection', { kind: 'tcp', protection: { ...none, basicAuth: true } }, false],
    ['UDP', { kind: 'udp', protection: none }, false],
  ] as const)('%s -> %s', (_, s, want) => expect(isProtected(s as Parameters<typeof isProtected>[0])).toBe(want));
});
