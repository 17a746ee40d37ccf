import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { SharedLinksCard } from './shared-links-card';

afterEach(() => vi.unstubAllGlobals());

const link = {
  id: 'l1',
  note: 'for Bob',
  status: 'active',
  expiresAt: new Date(Date.now() + 3600_000).toISOString(),
  sessionSeconds: 86400,
  createdAt: new Date().toISOString(),
};

describe('SharedLinksCard', () => {
  it('creates a link with the chosen lifetimes and shows it once with copy and QR', async () => {
    const { calls } = mockFetch([
      { path: '/api/services/s1/shared-links', body: { items: [] } },
      {
        method: 'POST',
        path: '/api/services/s1/shared-links',
        status: 201,
        body: { ...link, url: 'https://wiki.example.com/?gh_link=secret-token' },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<SharedLinksCard serviceId="s1" enabled />);
    await user.click(await screen.findByRole('button', { name: 'New link' }));
    const dialog = screen.getByRole('dialog', { name: 'New shared link' });
    await user.type(within(dialog).getByLabelText('Note'), 'for Bob');
    const lifetime = within(dialog).getByLabelText('Link lifetime');
    await user.clear(lifetime);
    await user.type(lifetime, '2');
    await user.selectOptions(within(dialog).getByLabelText('Link lifetime unit'), 'hours');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    const ready = await screen.findByRole('dialog', { name: 'Link ready' });
    expect(within(ready).getByLabelText('Shared link')).toHaveValue('https://wiki.example.com/?gh_link=secret-token');
    expect(within(ready).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ lifetimeSeconds: 7200, sessionSeconds: 86400, note: 'for Bob' });
  });

  it('sends the landing path and shows the warnings of the answer', async () => {
    const { calls } = mockFetch([
      { path: '/api/services/s1/shared-links', body: { items: [] } },
      {
        method: 'POST',
        path: '/api/services/s1/shared-links',
        status: 201,
        body: {
          ...link,
          path: '/apps/files',
          url: 'https://cloud.example.com/apps/files?gh_link=secret-token',
          warnings: ['the service also routes on a header, which a browser link cannot send'],
        },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<SharedLinksCard serviceId="s1" enabled />);
    await user.click(await screen.findByRole('button', { name: 'New link' }));
    const dialog = screen.getByRole('dialog', { name: 'New shared link' });
    const path = within(dialog).getByLabelText(/Landing path/);
    expect(path).toHaveAttribute('placeholder', "default: the service's first path rule, else /");
    await user.type(path, 'apps');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText('Paths start with /')).toBeInTheDocument();
    await user.clear(path);
    await user.type(path, '/apps/files');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    const ready = await screen.findByRole('dialog', { name: 'Link ready' });
    expect(within(ready).getByText('the service also routes on a header, which a browser link cannot send')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ path: '/apps/files' });
  }, 30_000);

  it('lists links with a text status and revokes after confirmation', async () => {
    const { calls } = mockFetch([
      { path: '/api/services/s1/shared-links', body: { items: [link, { ...link, id: 'l2', note: 'old', status: 'expired' }] } },
      { method: 'DELETE', path: '/api/services/s1/shared-links/l1', status: 204 },
    ]);
    const user = userEvent.setup();
    renderRoute(<SharedLinksCard serviceId="s1" enabled />);
    expect(await screen.findByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Expired')).toBeInTheDocument();
    // Only live links can be revoked.
    expect(screen.getAllByRole('button', { name: /^Revoke link/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Revoke link for Bob' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Revoke this link?' })).getByRole('button', { name: 'Revoke link' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/services/s1/shared-links/l1')).toBe(true));
  });

  it('cannot create links while shared links are off', async () => {
    mockFetch([{ path: '/api/services/s1/shared-links', body: { items: [] } }]);
    renderRoute(<SharedLinksCard serviceId="s1" enabled={false} />);
    expect(await screen.findByText('Turn shared links on above and save to create one.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New link' })).toBeDisabled();
  });

  it('asks for a PIN of 4 to 12 digits, sends it once and never shows it again', async () => {
    const { calls } = mockFetch([
      { path: '/api/services/s1/shared-links', body: { items: [] } },
      {
        method: 'POST',
        path: '/api/services/s1/shared-links',
        status: 201,
        body: { ...link, challenge: 'pin', failedAttempts: 0, url: 'https://wiki.example.com/?gh_link=secret-token' },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<SharedLinksCard serviceId="s1" enabled />);
    await user.click(await screen.findByRole('button', { name: 'New link' }));
    const dialog = screen.getByRole('dialog', { name: 'New shared link' });
    expect(within(dialog).queryByLabelText('PIN')).not.toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText('Ask the guest for'), 'A PIN');
    await user.type(within(dialog).getByLabelText('PIN'), '12a');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText('4 to 12 digits')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Suggest one' }));
    expect((within(dialog).getByLabelText('PIN') as HTMLInputElement).value).toMatch(/^\d{6}$/);
    await user.clear(within(dialog).getByLabelText('PIN'));
    await user.type(within(dialog).getByLabelText('PIN'), '482913');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    const ready = await screen.findByRole('dialog', { name: 'Link ready' });
    expect(within(ready).getByText('The link asks for its PIN')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ lifetimeSeconds: 86400, sessionSeconds: 86400, note: '', pin: '482913' });
    expect(within(ready).queryByText('482913')).not.toBeInTheDocument();
  }, 30_000);

  it('shows which links ask for a PIN, their wrong tries and a locked link', async () => {
    mockFetch([
      {
        path: '/api/services/s1/shared-links',
        body: { items: [{ ...link, challenge: 'pin', failedAttempts: 10, status: 'locked' }, { ...link, id: 'l2', note: 'for Ann', challenge: 'password', failedAttempts: 1 }] },
      },
    ]);
    renderRoute(<SharedLinksCard serviceId="s1" enabled />);
    expect(await screen.findByText('Locked')).toBeInTheDocument();
    expect(screen.getByText('10 wrong PINs')).toBeInTheDocument();
    expect(screen.getByText('1 wrong password')).toBeInTheDocument();
    expect(screen.getByText('PIN')).toBeInTheDocument();
    expect(screen.getByText('Password')).toBeInTheDocument();
    // A locked link can still be revoked (it ends nothing, but says so in the list).
    expect(screen.getByRole('button', { name: 'Revoke link for Bob' })).toBeInTheDocument();
  });
});
