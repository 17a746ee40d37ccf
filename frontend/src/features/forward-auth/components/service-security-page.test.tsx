import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectReadOnly, mockFetch, renderRoute, viewerMe } from '@/test/utils';
import { ServiceSecurityPage } from './service-security-page';
import { protectionSections } from './protection-sections';
import { userEntryError } from './user-entry';

afterEach(() => vi.unstubAllGlobals());

const adminMe = { path: '/api/admin/me', body: { user: { id: 'u1', username: 'ann', role: 'admin' } } };

const stored = {
  basicAuth: { enabled: false, credentialSetId: '' },
  sso: { enabled: false, users: [], groups: [] },
  sharedLinks: { enabled: true },
  tokens: { enabled: true, header: 'X-Api-Key' },
  emailCode: { enabled: false, allowedEmails: [], sessionSeconds: 86400 },
};

const common = [
  {
    path: '/api/services/s1/shared-links',
    body: { items: [{ id: 'l1', note: 'for Bob', status: 'active', challenge: 'none', failedAttempts: 0, expiresAt: new Date(Date.now() + 3600_000).toISOString(), sessionSeconds: 86400, createdAt: new Date().toISOString() }] },
  },
  { path: '/api/credential-sets', body: { items: [{ id: 'set1', name: 'family', users: [{ username: 'alice' }] }] } },
  { path: '/api/sso', body: { enabled: true } },
  { path: '/api/notifications/settings', body: { certWarningDays: 14, debounceSeconds: 60, mailChannelId: 'c1' } },
];

function renderPage() {
  return renderRoute(<ServiceSecurityPage />, { path: '/services/:id/security', url: '/services/s1/security' });
}

describe('ServiceSecurityPage', () => {
  it('shows a viewer every protection read-only, shared links without new or revoke', async () => {
    mockFetch([viewerMe, { path: '/api/services/s1/protection', body: stored }, ...common]);
    renderPage();
    expect(await screen.findByText('for Bob')).toBeInTheDocument();
    await expectReadOnly();
    for (const name of ['Shared links are accepted', 'Require basic auth', 'Accept machine tokens'])
      expect(screen.getByRole('switch', { name })).toBeDisabled();
    expect(screen.getByDisplayValue('X-Api-Key')).toBeDisabled();
    expect(screen.queryByRole('link', { name: /New token/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save protection' })).not.toBeInTheDocument();
  });

  it('saves every protection with one request from the sticky bar, which says when there are unsaved changes', async () => {
    const saved = { ...stored, basicAuth: { enabled: true, credentialSetId: 'set1' }, tokens: { enabled: false, header: 'X-Api-Key' } };
    const { calls } = mockFetch([adminMe, { path: '/api/services/s1/protection', body: stored }, { method: 'PUT', path: '/api/services/s1/protection', body: saved }, ...common]);
    const user = userEvent.setup();
    renderPage();
    const bar = await screen.findByTestId('protection-save-bar');
    expect(within(bar).getByRole('status')).toHaveTextContent('All changes saved');
    expect(within(bar).getByRole('button', { name: 'Save protection' })).toBeDisabled();
    // Two sections changed: one save.
    await user.click(screen.getByRole('switch', { name: 'Require basic auth' }));
    await user.selectOptions(screen.getByLabelText('Credential set'), 'set1');
    await user.click(screen.getByRole('switch', { name: 'Accept machine tokens' }));
    expect(bar).toHaveClass('dirty');
    expect(within(bar).getByRole('status')).toHaveTextContent('Unsaved changes');
    expect(calls.some((c) => c.method !== 'GET')).toBe(false);
    await user.click(within(bar).getByRole('button', { name: 'Save protection' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      basicAuth: { enabled: true, credentialSetId: 'set1' },
      sso: { enabled: false, users: [], groups: [] },
      sharedLinks: { enabled: true },
      tokens: { enabled: false, header: 'X-Api-Key' },
      emailCode: { enabled: false, allowedEmails: [], sessionSeconds: 86400 },
      people: { enabled: false, people: [], groups: [], secondFactor: false, maxAgeSeconds: 0 },
    });
    await waitFor(() => expect(within(bar).getByRole('status')).toHaveTextContent('All changes saved'));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  }, 30_000);

  it('checks the form before saving and discards changes on request', async () => {
    const { calls } = mockFetch([adminMe, { path: '/api/services/s1/protection', body: stored }, ...common]);
    const user = userEvent.setup();
    renderPage();
    const bar = await screen.findByTestId('protection-save-bar');
    await user.click(screen.getByRole('switch', { name: 'Require basic auth' }));
    await user.clear(screen.getByLabelText(/Token header/));
    await user.type(screen.getByLabelText(/Token header/), 'Bad Header');
    await user.click(within(bar).getByRole('button', { name: 'Save protection' }));
    expect(await screen.findByText('Pick a credential set')).toBeInTheDocument();
    expect(screen.getByText(/Not a valid header name/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    await user.click(within(bar).getByRole('button', { name: 'Discard' }));
    expect(screen.getByRole('switch', { name: 'Require basic auth' })).not.toBeChecked();
    expect(screen.getByLabelText(/Token header/)).toHaveValue('X-Api-Key');
    expect(within(bar).getByRole('status')).toHaveTextContent('All changes saved');
  }, 30_000);

  it('asks before leaving the page with unsaved changes', async () => {
    mockFetch([adminMe, { path: '/api/services/s1/protection', body: stored }, ...common]);
    const user = userEvent.setup();
    const { router } = renderPage();
    await user.click(await screen.findByRole('switch', { name: 'Accept machine tokens' }));
    await act(() => router.navigate('/machine-tokens'));
    const dialog = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/services/s1/security');
    expect(screen.getByRole('switch', { name: 'Accept machine tokens' })).not.toBeChecked();
    await act(() => router.navigate('/machine-tokens'));
    await user.click(within(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' })).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/machine-tokens'));
  }, 30_000);

  it("puts the server's field errors on their fields, list entries on their list", async () => {
    mockFetch([
      adminMe,
      { path: '/api/services/s1/protection', body: stored },
      {
        method: 'PUT',
        path: '/api/services/s1/protection',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'request has invalid fields', fields: [{ field: 'people.groups[0]', message: 'no such group in the directory' }, { field: 'tokens.header', message: 'Cookie cannot carry a token' }] } },
      },
      ...common,
    ]);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('switch', { name: 'Shared links are accepted' }));
    await user.click(screen.getByRole('button', { name: 'Save protection' }));
    expect(await screen.findByText('no such group in the directory')).toBeInTheDocument();
    expect(screen.getByText('Cookie cannot carry a token')).toBeInTheDocument();
    expect(screen.getByTestId('protection-save-bar')).toHaveClass('dirty');
  }, 30_000);

  it('offers no per-service single sign-on, and shows one left by an older release as replaced, only to switch off', async () => {
    mockFetch([adminMe, { path: '/api/services/s1/protection', body: stored }, ...common]);
    const first = renderPage();
    expect(await screen.findByText('for Bob')).toBeInTheDocument();
    expect(screen.queryByText(/Single sign-on/)).not.toBeInTheDocument();
    first.unmount();

    const { calls } = mockFetch([
      adminMe,
      { path: '/api/services/s1/protection', body: { ...stored, sso: { enabled: true, users: ['alice@example.com'], groups: ['admins'] } } },
      { method: 'PUT', path: '/api/services/s1/protection', body: stored },
      ...common,
    ]);
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('Replaced by People')).toBeInTheDocument();
    expect(screen.getByText(/alice@example.com; groups: admins/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /Allowed users/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Keep per-service single sign-on for now' }));
    await user.click(screen.getByRole('button', { name: 'Save protection' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ sso: { enabled: false, users: ['alice@example.com'], groups: ['admins'] } }));
  }, 30_000);

  it('accepts sub: subjects, e-mail addresses and usernames', () => {
    expect(userEntryError('sub:248289761001')).toBeNull();
    expect(userEntryError('sub:auth0|5f7c8ec7c33c6c004bbafe82')).toBeNull();
    expect(userEntryError('alice@example.com')).toBeNull();
    expect(userEntryError('alice.smith')).toBeNull();
    expect(userEntryError('sub:')).toMatch(/subject/);
    expect(userEntryError('two words')).not.toBeNull();
  });

  it('lists every protection once, in one registry', () => {
    const keys = protectionSections.map((s) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(expect.arrayContaining(['basicAuth', 'sso', 'sharedLinks', 'tokens', 'emailCode']));
  });
});

describe('ServiceSecurityPage for a TCP or UDP service', () => {
  const off = { ...stored, sharedLinks: { enabled: false }, tokens: { enabled: false, header: '' } };
  const list = (kind: string) => ({ path: '/api/services', body: { items: [{ id: 's1', name: 'Postgres', kind, enabled: true, targets: [] }] } });

  it('explains where a TCP service restricts its clients instead of showing the forms', async () => {
    mockFetch([adminMe, list('tcp'), { path: '/api/services/s1/protection', body: off }, ...common]);
    renderPage();
    expect(await screen.findByText(/allowed addresses on the Settings tab/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /save/i })).toBeNull();
  });

  it('shows the form below the notice while a protection is left on, so it can be removed', async () => {
    mockFetch([adminMe, list('udp'), { path: '/api/services/s1/protection', body: stored }, ...common]);
    renderPage();
    expect(await screen.findByText(/firewall/)).toBeInTheDocument();
    expect(screen.getByText(/Traefik does not route this service/)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /save/i })).toBeInTheDocument();
  });
});
