import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OidcClient, OidcPreset, OidcProvider } from '@/lib/api-types';
import { expectNoWriteButtons, mockFetch, renderRoute, viewerMe } from '@/test/utils';
import { ClientsPage } from './clients-page';
import { fromPreset, lines } from './preset-fill';

afterEach(() => vi.unstubAllGlobals());

const provider: OidcProvider = {
  issuer: 'https://auth.example.com',
  discoveryUrl: 'https://auth.example.com/.well-known/openid-configuration',
  authorizationEndpoint: 'https://auth.example.com/oidc/authorize',
  tokenEndpoint: 'https://auth.example.com/oidc/token',
  userinfoEndpoint: 'https://auth.example.com/oidc/userinfo',
  jwksUri: 'https://auth.example.com/oidc/keys',
  endSessionEndpoint: 'https://auth.example.com/oidc/end_session',
  deviceAuthorizationEndpoint: 'https://auth.example.com/oidc/device_authorization',
};

const grafana: OidcPreset = {
  id: 'grafana',
  name: 'Grafana',
  description: 'Grafana generic OAuth.',
  redirectUris: ['https://{host}/login/generic_oauth'],
  postLogoutRedirectUris: ['https://{host}/login'],
  backchannelLogoutUri: '',
  public: false,
  scopes: ['openid', 'profile', 'email', 'groups'],
  grantTypes: ['authorization_code'],
  claimMappings: [{ claim: 'grafana_role', kind: 'groups', values: [{ group: 'grafana-admins', value: 'Admin' }], default: 'Viewer' }],
  note: 'Set root_url to https://{host}/.',
  docs: ['https://grafana.com/docs/grafana/latest/setup-grafana/configure-security/configure-authentication/generic-oauth/'],
};

const client: OidcClient = {
  id: 'cid-123',
  name: 'Grafana',
  logoUrl: '',
  preset: 'grafana',
  public: false,
  secretSet: true,
  redirectUris: ['https://grafana.example.com/login/generic_oauth'],
  postLogoutRedirectUris: ['https://grafana.example.com/login'],
  backchannelLogoutUri: '',
  allowedGroups: [{ id: 'g1', name: 'grafana-users' }],
  scopes: ['openid', 'profile', 'email', 'groups'],
  grantTypes: ['authorization_code'],
  signingAlg: 'RS256',
  claimMappings: grafana.claimMappings,
  impliedConsent: false,
  accessTokenTtlSeconds: 3600,
  idTokenTtlSeconds: 3600,
  refreshTokenTtlSeconds: 2592000,
  service: { id: 's1', name: 'Grafana' },
  disabled: false,
  secondFactor: false,
  maxAgeSeconds: 0,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

const reads = [
  { path: '/api/oidc/presets', body: { items: [grafana] } },
  { path: '/api/services', body: { items: [{ id: 's1', name: 'Grafana', fqdns: ['grafana.example.com'] }] } },
  { path: '/api/groups', body: { items: [{ id: 'g1', name: 'grafana-users' }] } },
];

describe('preset fill', () => {
  it('fills the host into every address and keeps the placeholder without one', () => {
    const v = fromPreset(grafana, 'grafana.example.com');
    expect(v.redirectUris).toBe('https://grafana.example.com/login/generic_oauth');
    expect(v.postLogoutRedirectUris).toBe('https://grafana.example.com/login');
    expect(JSON.parse(v.claimMappings!)).toEqual(grafana.claimMappings);
    expect(fromPreset(grafana, '').redirectUris).toBe('https://{host}/login/generic_oauth');
    expect(lines(' a \n\n b ')).toEqual(['a', 'b']);
  });
});

describe('ClientsPage', () => {
  it('creates a client from a preset and a service, and shows its secret once with the client id', async () => {
    const { calls } = mockFetch([
      { path: '/api/oidc/clients', body: { items: [], provider } },
      ...reads,
      { method: 'POST', path: '/api/oidc/clients', status: 201, body: { client, secret: 's3cr3t-shown-once' } },
    ]);
    const user = userEvent.setup();
    renderRoute(<ClientsPage />);
    expect(await screen.findByLabelText('Discovery URL')).toHaveValue(provider.discoveryUrl);
    await user.click(screen.getByRole('button', { name: 'New app' }));
    const dialog = screen.getByRole('dialog', { name: 'New app' });
    await waitFor(() => expect(within(within(dialog).getByLabelText('App')).getByRole('option', { name: 'Grafana' })).toBeInTheDocument());
    await waitFor(() => expect(within(within(dialog).getByLabelText(/^Service/)).getByRole('option', { name: 'Grafana' })).toBeInTheDocument());
    await user.selectOptions(within(dialog).getByLabelText('App'), 'grafana');
    expect(within(dialog).getByText('Pick its service to fill in the address, or replace {host} yourself.')).toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText(/^Service/), 's1');
    expect(within(dialog).getByLabelText('Redirect URIs')).toHaveValue('https://grafana.example.com/login/generic_oauth');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Grafana');
    expect(within(dialog).getByRole('link', { name: grafana.docs[0] })).toHaveAttribute('href', grafana.docs[0]);
    await user.click(within(dialog).getByRole('checkbox', { name: 'grafana-users' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create app' }));

    const shown = await screen.findByRole('dialog', { name: 'Secret of Grafana' });
    expect(within(shown).getByLabelText('Client secret')).toHaveValue('s3cr3t-shown-once');
    expect(within(shown).getByLabelText('Client ID')).toHaveValue('cid-123');
    expect(within(shown).getByText(/cannot show it again/)).toBeInTheDocument();
    expect(within(shown).getAllByRole('button', { name: 'Copy' }).length).toBeGreaterThan(0);
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({
      name: 'Grafana',
      preset: 'grafana',
      serviceId: 's1',
      redirectUris: ['https://grafana.example.com/login/generic_oauth'],
      postLogoutRedirectUris: ['https://grafana.example.com/login'],
      allowedGroupIds: ['g1'],
      scopes: ['openid', 'profile', 'email', 'groups'],
      claimMappings: grafana.claimMappings,
      accessTokenTtlSeconds: 3600,
      refreshTokenTtlSeconds: 2592000,
    });
    await user.click(within(shown).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Secret of Grafana' })).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue('s3cr3t-shown-once')).not.toBeInTheDocument();
  }, 30_000);

  it('sends the second factor and the maximum sign-in age of a new app', async () => {
    const { calls } = mockFetch([
      { path: '/api/oidc/clients', body: { items: [], provider } },
      ...reads,
      { method: 'POST', path: '/api/oidc/clients', status: 201, body: { client: { ...client, secondFactor: true, maxAgeSeconds: 43200 }, secret: 's' } },
    ]);
    const user = userEvent.setup();
    renderRoute(<ClientsPage />);
    await user.click(await screen.findByRole('button', { name: 'New app' }));
    const dialog = screen.getByRole('dialog', { name: 'New app' });
    const second = within(dialog).getByRole('switch', { name: 'Require a second factor' });
    expect(second).not.toBeChecked();
    expect(second).toHaveAccessibleDescription(/passkey, an authenticator app or a recovery code/);
    expect(within(dialog).getByLabelText('Maximum sign-in age')).toHaveValue('0');
    await user.type(within(dialog).getByLabelText('Name'), 'Wiki');
    await user.type(within(dialog).getByLabelText('Redirect URIs'), 'https://wiki.example.com/cb');
    await user.click(second);
    await user.selectOptions(within(dialog).getByLabelText('Maximum sign-in age'), '12 hours');
    await user.click(within(dialog).getByRole('button', { name: 'Create app' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ name: 'Wiki', secondFactor: true, maxAgeSeconds: 43200 });
  }, 30_000);

  it('shows a saved app’s second factor and sign-in age, and keeps them on save', async () => {
    const strict = { ...client, secondFactor: true, maxAgeSeconds: 43200 };
    const { calls } = mockFetch([
      { path: '/api/oidc/clients', body: { items: [strict, { ...client, id: 'cid-456', name: 'Wiki' }], provider } },
      ...reads,
      { method: 'PUT', path: '/api/oidc/clients/cid-123', body: strict },
    ]);
    const user = userEvent.setup();
    renderRoute(<ClientsPage />);
    const row = (await screen.findByText('cid-123')).closest('tr')!;
    expect(within(row).getByText('2FA')).toBeInTheDocument();
    expect(within(row).getByText('Sign-in at most 12 hours old')).toBeInTheDocument();
    const other = screen.getByText('cid-456').closest('tr')!;
    expect(within(other).queryByText('2FA')).not.toBeInTheDocument();
    expect(within(other).queryByText(/Sign-in at most/)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Grafana' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Grafana' });
    expect(within(dialog).getByRole('switch', { name: 'Require a second factor' })).toBeChecked();
    expect(within(dialog).getByLabelText('Maximum sign-in age')).toHaveValue('43200');
    await user.selectOptions(within(dialog).getByLabelText('Maximum sign-in age'), '7 days');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ secondFactor: true, maxAgeSeconds: 604800 });
  }, 30_000);

  it('keeps a sign-in age set through the API that is not among the choices', async () => {
    const odd = { ...client, maxAgeSeconds: 5400 };
    const { calls } = mockFetch([
      { path: '/api/oidc/clients', body: { items: [odd], provider } },
      ...reads,
      { method: 'PUT', path: '/api/oidc/clients/cid-123', body: odd },
    ]);
    const user = userEvent.setup();
    renderRoute(<ClientsPage />);
    expect(await screen.findByText('Sign-in at most 1h 30m old')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit Grafana' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Grafana' });
    expect(within(dialog).getByLabelText('Maximum sign-in age')).toHaveValue('5400');
    await user.type(within(dialog).getByLabelText('Name'), ' 2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ name: 'Grafana 2', secondFactor: false, maxAgeSeconds: 5400 });
  }, 30_000);

  it.each([
    { field: 'redirectUris[0]', message: 'must not have a fragment (#)', uri: 'https://a.example.com/cb#x', label: 'Redirect URIs' },
    { field: 'maxAgeSeconds', message: 'must be between 0 and 31536000', uri: 'https://a.example.com/cb', label: 'Maximum sign-in age' },
  ])('puts the server error of $field on its field', async ({ field, message, uri, label }) => {
    mockFetch([
      { path: '/api/oidc/clients', body: { items: [], provider } },
      ...reads,
      { method: 'POST', path: '/api/oidc/clients', status: 422, body: { error: { code: 'validation_failed', message: 'invalid', fields: [{ field, message }] } } },
    ]);
    const user = userEvent.setup();
    renderRoute(<ClientsPage />);
    await user.click(await screen.findByRole('button', { name: 'New app' }));
    const dialog = screen.getByRole('dialog', { name: 'New app' });
    await user.type(within(dialog).getByLabelText('Name'), 'Other');
    await user.type(within(dialog).getByLabelText('Redirect URIs'), uri);
    await user.click(within(dialog).getByRole('button', { name: 'Create app' }));
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(label)).toHaveAccessibleDescription(new RegExp(message.replace(/[()#[\]]/g, '\\$&')));
  }, 30_000);

  it('rotates a secret after confirming, and deletes after confirming', async () => {
    const { calls } = mockFetch([
      { path: '/api/oidc/clients', body: { items: [client], provider } },
      { method: 'POST', path: '/api/oidc/clients/cid-123/secret', body: { client, secret: 'rotated-secret' } },
      { method: 'DELETE', path: '/api/oidc/clients/cid-123', status: 204 },
    ]);
    const user = userEvent.setup();
    renderRoute(<ClientsPage />);
    await user.click(await screen.findByRole('button', { name: 'New secret for Grafana' }));
    await user.click(within(screen.getByRole('dialog', { name: 'New secret for Grafana?' })).getByRole('button', { name: 'Make a new secret' }));
    const shown = await screen.findByRole('dialog', { name: 'Secret of Grafana' });
    expect(within(shown).getByLabelText('Client secret')).toHaveValue('rotated-secret');
    await user.click(within(shown).getByRole('button', { name: 'I have copied it' }));

    await user.click(screen.getByRole('button', { name: 'Delete Grafana' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(screen.getByRole('dialog', { name: 'Delete Grafana?' })).getByRole('button', { name: 'Delete app' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/oidc/clients/cid-123')).toBe(true));
  }, 30_000);

  it('shows a viewer the clients and the client id, with no way to change them', async () => {
    mockFetch([viewerMe, { path: '/api/oidc/clients', body: { items: [client], provider } }]);
    const user = userEvent.setup();
    renderRoute(<ClientsPage />);
    await user.click(await screen.findByRole('button', { name: 'Details of Grafana' }));
    expect(screen.getByLabelText('Client ID')).toHaveValue('cid-123');
    expect(screen.getByText('grafana-users')).toBeInTheDocument();
    expectNoWriteButtons();
    expect(screen.queryByRole('button', { name: /New secret/ })).not.toBeInTheDocument();
  });

  it('asks for the portal host when there is none', async () => {
    mockFetch([{ path: '/api/oidc/clients', body: { items: [], provider: { ...provider, issuer: '', discoveryUrl: '' } } }]);
    renderRoute(<ClientsPage />);
    expect(await screen.findByText('No sign-in portal yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
  });
});
