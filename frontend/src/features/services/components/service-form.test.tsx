import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Domain, Service } from '@/lib/api-types';
import { expectReadOnly, mockFetch, renderRoute, viewerMe, type MockRoute } from '@/test/utils';
import { ServiceForm } from './service-form';

const domain: Domain = {
  id: 'd1',
  name: 'Home',
  domain: 'example.com',
  certResolver: 'letsencrypt',
  wildcard: false,
  isDefault: true,
  certConfigs: [],
  https: { redirect: true, hsts: { maxAge: 31536000, includeSubdomains: false, preload: false } },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

const existing: Service = {
  id: 's9',
  name: 'Grafana',
  domainId: 'd1',
  hostnames: [{ type: 'subdomain', value: 'grafana' }],
  fqdns: ['grafana.example.com'],
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
};

const base: MockRoute[] = [
  { path: '/api/domains', body: { items: [domain] } },
  { path: '/api/services', body: { items: [existing] } },
  { path: '/api/config', body: { adminDomain: '', defaultEntrypoints: ['websecure'], globalMiddlewares: [], defaultLifetimeSeconds: 0 } },
  { path: '/api/proxy/entrypoints', body: { configured: true, reachable: true, items: [{ name: 'web', address: ':80' }, { name: 'websecure', address: ':443' }] } },
  { path: '/api/proxy/middlewares', body: { configured: false, reachable: false, items: [] } },
];

beforeEach(() => {
  vi.useRealTimers();
});
afterEach(() => vi.unstubAllGlobals());

async function openTab(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByRole('tab', { name: new RegExp(`^${name}`) }));
}

async function fillBasics(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Name'), 'Wiki');
  await waitFor(() => expect(screen.getByLabelText('Domain')).toHaveValue('d1'));
  await user.type(screen.getByLabelText('Hostname 1'), 'wiki');
  await user.type(screen.getByLabelText('Target 1 host'), '10.0.0.7');
  const port = screen.getByLabelText('Target 1 port');
  await user.clear(port);
  await user.type(port, '8080');
}

describe('ServiceForm', () => {
  it('shows client-side validation errors on the right fields', async () => {
    mockFetch(base);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await waitFor(() => expect(screen.getByLabelText('Domain')).toHaveValue('d1'));
    const port = screen.getByLabelText('Target 1 port');
    await user.clear(port);
    await user.type(port, '70000');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    expect(await screen.findByText('Give the service a name')).toBeInTheDocument();
    expect(screen.getByText('Enter a subdomain')).toBeInTheDocument();
    expect(screen.getByText('Port: Must be between 1 and 65535')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('does not validate on blur, so the click that blurs a bad field still lands', async () => {
    mockFetch(base);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await waitFor(() => expect(screen.getByLabelText('Domain')).toHaveValue('d1'));
    const port = screen.getByLabelText('Target 1 port');
    await user.clear(port);
    await user.type(port, '0');
    await user.click(screen.getByRole('button', { name: 'Add hostname' }));
    expect(await screen.findByRole('button', { name: 'Remove hostname 2' })).toBeInTheDocument();
    expect(port).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    await waitFor(() => expect(port).toHaveAttribute('aria-invalid', 'true'));
    // Once shown, the error follows each change.
    await user.clear(port);
    await user.type(port, '8080');
    await waitFor(() => expect(port).not.toHaveAttribute('aria-invalid'));
  });

  it('maps server field errors from the envelope onto the form', async () => {
    const { calls } = mockFetch([
      ...base,
      {
        method: 'POST',
        path: '/api/services',
        status: 422,
        body: {
          error: {
            code: 'validation_failed',
            message: 'request has invalid fields',
            fields: [
              { field: 'targets[0].host', message: 'must be an IP address or hostname' },
              { field: 'hostnames[0].value', message: 'is reserved' },
            ],
          },
        },
      },
    ]);
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={onSaved} />);
    await fillBasics(user);
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    expect(await screen.findByText('Host: must be an IP address or hostname')).toBeInTheDocument();
    expect(screen.getByText('is reserved')).toBeInTheDocument();
    expect(screen.getByLabelText('Target 1 host')).toHaveAttribute('aria-invalid', 'true');
    expect(onSaved).not.toHaveBeenCalled();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({
      name: 'Wiki',
      domainId: 'd1',
      hostnames: [{ type: 'subdomain', value: 'wiki' }],
      targets: [{ scheme: 'http', host: '10.0.0.7', port: 8080 }],
    });
    expect(post.body).not.toHaveProperty('expiry');
  });

  it('shows a 409 conflict without fields as a form alert', async () => {
    mockFetch([
      ...base,
      { method: 'POST', path: '/api/services', status: 409, body: { error: { code: 'conflict', message: 'hostname wiki.example.com belongs to service Other' } } },
    ]);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await fillBasics(user);
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    const alert = await screen.findByText('The service was not saved');
    expect(within(alert.closest('.alert') as HTMLElement).getByText(/belongs to service Other/)).toBeInTheDocument();
  });

  it('warns while typing a hostname another service owns', async () => {
    mockFetch(base);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await waitFor(() => expect(screen.getByLabelText('Domain')).toHaveValue('d1'));
    await waitFor(() => expect(screen.getByText('+ websecure')).toBeInTheDocument());
    await user.type(screen.getByLabelText('Hostname 1'), 'grafana');
    expect(await screen.findByText(/already belongs to/)).toHaveTextContent('grafana.example.com already belongs to Grafana');
  });

  it('previews the generated Traefik rule live', async () => {
    mockFetch(base);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await waitFor(() => expect(screen.getByLabelText('Domain')).toHaveValue('d1'));
    await user.type(screen.getByLabelText('Hostname 1'), 'wiki');
    expect(screen.getByTestId('rule-preview')).toHaveTextContent('Host(`wiki.example.com`)');
    await openTab(user, 'Advanced');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await user.type(screen.getByLabelText('Rule 1 value'), '/api');
    expect(screen.getByTestId('rule-preview')).toHaveTextContent('Host(`wiki.example.com`) && PathPrefix(`/api`)');
  });

  it('checks a client IP as the server does and never previews invalid input as a rule', async () => {
    const { calls } = mockFetch(base);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await fillBasics(user);
    await openTab(user, 'Advanced');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await user.selectOptions(screen.getByLabelText('Rule 1 type'), 'clientIP');
    await user.type(screen.getByLabelText('Rule 1 value'), '10.0.0.300/8');
    expect(screen.getByTestId('rule-preview')).not.toHaveTextContent('ClientIP');
    expect(screen.getByTestId('rule-preview')).toHaveTextContent('Fix the match rules above to see the rule.');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    expect(await screen.findByText('Enter an IP address or a CIDR range such as 10.0.0.0/8')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.clear(screen.getByLabelText('Rule 1 value'));
    await user.type(screen.getByLabelText('Rule 1 value'), '10.0.0.0/8');
    expect(screen.getByTestId('rule-preview')).toHaveTextContent('Host(`wiki.example.com`) && ClientIP(`10.0.0.0/8`)');
  });

  it('saves an edit with PUT and the chosen expiry', async () => {
    const { calls } = mockFetch([...base, { method: 'PUT', path: '/api/services/s9', body: { ...existing, name: 'Grafana 2' } }]);
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderRoute(<ServiceForm service={existing} onSaved={onSaved} />);
    const name = screen.getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Grafana 2');
    await user.click(screen.getByLabelText('After a duration'));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({ name: 'Grafana 2', expiry: { type: 'duration', seconds: 86400 } });
  });

  it('shows a viewer the saved service read-only, without save, add or remove buttons', async () => {
    mockFetch([viewerMe, ...base]);
    renderRoute(<ServiceForm service={existing} onSaved={vi.fn()} />);
    await expectReadOnly();
    expect(screen.getByLabelText('Name')).toHaveValue('Grafana');
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(screen.getByLabelText('Target 1 host')).toBeDisabled();
    expect(screen.queryByRole('switch', { name: /Enabled/ })).toBeNull(); // the status switch is in the page header
  });

  it('inherits the domain HTTPS defaults unless overridden, and checks HSTS as the server does', async () => {
    const { calls } = mockFetch([
      ...base,
      {
        method: 'POST',
        path: '/api/services',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'invalid', fields: [{ field: 'https.hsts.maxAge', message: 'must be between 0 (no header) and 63072000 seconds (two years)' }] } },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await fillBasics(user);
    await openTab(user, 'TLS and HTTPS');
    expect(screen.getByLabelText('Redirect HTTP to HTTPS')).toHaveValue('inherit');
    await waitFor(() => expect(screen.getByRole('option', { name: 'Inherit (from example.com: on)' })).toBeInTheDocument());
    expect(screen.getByRole('option', { name: 'Inherit (from example.com: max-age 31536000s)' })).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('HSTS'), 'on');
    await user.click(screen.getByLabelText(/^Preload/));
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    expect(await screen.findByText(/Preload needs subdomains included/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(screen.getByLabelText(/^Include subdomains/));
    await user.selectOptions(screen.getByLabelText('Redirect HTTP to HTTPS'), 'off');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    expect(await screen.findByText(/must be between 0 \(no header\)/)).toBeInTheDocument();
    expect(screen.getByLabelText('Max age (seconds)')).toHaveAttribute('aria-invalid', 'true');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({ https: { redirect: false, hsts: { maxAge: 31536000, includeSubdomains: true, preload: true } } });
  });

  it('sends null to inherit, and shows the preview warnings of a saved service', async () => {
    const { calls } = mockFetch([
      ...base,
      {
        path: '/api/proxy/config/preview?serviceId=s9',
        body: { serviceId: 's9', warnings: [{ code: 'default_certificate', message: 'On websecure Traefik serves its default self-signed certificate.' }] },
      },
      { method: 'PUT', path: '/api/services/s9', body: existing },
    ]);
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderRoute(<ServiceForm service={existing} onSaved={onSaved} />);
    expect(await screen.findByText(/serves its default self-signed certificate/)).toBeInTheDocument();
    const name = screen.getByLabelText('Name');
    await user.type(name, ' 2');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ https: { redirect: null, hsts: null } });
  });

  it('creates a redirect without targets, checking the URL as the server does', async () => {
    const { calls } = mockFetch([...base, { method: 'POST', path: '/api/services', status: 201, body: { ...existing, kind: 'redirect' } }]);
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={onSaved} />);
    await user.type(await screen.findByLabelText('Name'), 'Old site');
    await waitFor(() => expect(screen.getByLabelText('Domain')).toHaveValue('d1'));
    await user.type(screen.getByLabelText('Hostname 1'), 'old');
    await user.click(screen.getByLabelText('Redirect'));
    expect(screen.queryByLabelText('Target 1 host')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Redirect to'), 'https://new.example.org/?from=old');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    expect(await screen.findByText('No query or fragment when the request path and query are kept')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(screen.getByLabelText(/^Keep the path and query/));
    await user.selectOptions(screen.getByLabelText('Redirect type'), 'false');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      kind: 'redirect',
      targets: [],
      redirect: { url: 'https://new.example.org/?from=old', permanent: false, keepPath: false },
    });
  });

  it('maps a server error on redirect.url onto the URL field', async () => {
    mockFetch([
      ...base,
      {
        method: 'POST',
        path: '/api/services',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'invalid', fields: [{ field: 'redirect.url', message: 'must name a valid host' }] } },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await user.type(await screen.findByLabelText('Name'), 'Old site');
    await waitFor(() => expect(screen.getByLabelText('Domain')).toHaveValue('d1'));
    await user.type(screen.getByLabelText('Hostname 1'), 'old');
    await user.click(screen.getByLabelText('Redirect'));
    await user.type(screen.getByLabelText('Redirect to'), 'https://x_y.test/');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    expect(await screen.findByText('must name a valid host')).toBeInTheDocument();
    expect(screen.getByLabelText('Redirect to')).toHaveAttribute('aria-invalid', 'true');
  });

  it('switches a saved service to maintenance with a message, keeping its targets', async () => {
    const { calls } = mockFetch([...base, { method: 'PUT', path: '/api/services/s9', body: existing }]);
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderRoute(<ServiceForm service={existing} onSaved={onSaved} />);
    expect(screen.queryByLabelText(/Maintenance message/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Off' }));
    await user.type(screen.getByLabelText(/Maintenance message/), 'Back at noon');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({
      kind: 'proxy',
      targets: existing.targets,
      maintenance: { enabled: true, message: 'Back at noon' },
    });
  });

  it('sends the load-balancing options and target weights, mapping server errors onto them', async () => {
    const { calls } = mockFetch([
      ...base,
      {
        method: 'POST',
        path: '/api/services',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'invalid', fields: [{ field: 'loadBalancer.sticky.cookieName', message: 'is reserved' }] } },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await fillBasics(user);
    await user.click(screen.getByRole('button', { name: 'Add target' }));
    await user.type(screen.getByLabelText('Target 2 host'), '10.0.0.8');
    const weight = screen.getByLabelText('Target 2 weight');
    await user.clear(weight);
    await user.type(weight, '3');

    await user.click(screen.getByLabelText(/^Health check/));
    const timeout = screen.getByLabelText('Timeout (seconds)');
    await user.clear(timeout);
    await user.type(timeout, '20');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    expect(await screen.findByText('Between 1 and 300 seconds, at most the interval')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(timeout);
    await user.type(timeout, '2');
    await user.click(screen.getByLabelText(/^Sticky sessions/));
    await user.type(screen.getByLabelText(/^Cookie name/), 'lb');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    expect(await screen.findByText('is reserved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      targets: [{ host: '10.0.0.7', port: 8080 }, { host: '10.0.0.8', port: 80, weight: 3 }],
      loadBalancer: {
        healthCheck: { path: '/', intervalSeconds: 10, timeoutSeconds: 2, status: 0 },
        sticky: { cookieName: 'lb', secure: false, httpOnly: true, sameSite: '' },
        timeouts: { dialSeconds: 0, responseHeaderSeconds: 0, idleConnSeconds: 0 },
      },
    });
  });

  it('keeps the status the page header switched: an edit never turns a disabled service back on', async () => {
    const off = { ...existing, enabled: false };
    const { calls } = mockFetch([...base, { method: 'PUT', path: '/api/services/s9', body: off }]);
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderRoute(<ServiceForm service={off} onSaved={onSaved} />);
    await user.type(await screen.findByLabelText('Name'), ' 2');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ enabled: false });
  });

  it('fills the scheme, host and port from a pasted URL', async () => {
    const { calls } = mockFetch([...base, { method: 'POST', path: '/api/services', status: 201, body: existing }]);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await user.type(await screen.findByLabelText('Name'), 'Grafana');
    await waitFor(() => expect(screen.getByLabelText('Domain')).toHaveValue('d1'));
    await user.type(screen.getByLabelText('Hostname 1'), 'grafana');
    await user.click(screen.getByLabelText('Target 1 host'));
    await user.paste('https://10.0.0.5:3000/');
    expect(screen.getByLabelText('Target 1 scheme')).toHaveValue('https');
    expect(screen.getByLabelText('Target 1 host')).toHaveValue('10.0.0.5');
    expect(screen.getByLabelText('Target 1 port')).toHaveValue('3000');
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ targets: [{ scheme: 'https', host: '10.0.0.5', port: 3000 }] });
  });

  it('splits the form into tabs, counts errors per tab and opens the first tab with one', async () => {
    mockFetch(base);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await fillBasics(user);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Details', 'TLS and HTTPS', 'Load balancing', 'Advanced']);
    await openTab(user, 'Advanced');
    await user.click(screen.getByRole('button', { name: 'Add header' }));
    await user.type(screen.getByLabelText('Header 1 value'), 'x');
    await openTab(user, 'Details');
    // Save stays in view on every tab.
    await user.click(screen.getByRole('button', { name: 'Create service' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: /^Advanced/ })).toHaveAttribute('aria-selected', 'true'));
    expect(screen.getByRole('tab', { name: /^Advanced/ })).toHaveTextContent('Advanced1');
    expect(screen.getByLabelText('Header 1 name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('offers one "Never" when there is no default lifetime', async () => {
    mockFetch(base);
    const user = userEvent.setup();
    renderRoute(<ServiceForm onSaved={vi.fn()} />);
    await waitFor(() => expect(screen.getByLabelText('Domain')).toHaveValue('d1'));
    await openTab(user, 'Advanced');
    const group = screen.getByRole('radiogroup', { name: 'Expiry' });
    expect(within(group).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['Never', 'At a date', 'After a duration']);
    expect(within(group).getByRole('radio', { name: 'Never' })).toBeChecked();
  });
});
