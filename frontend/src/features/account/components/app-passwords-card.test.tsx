import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { mockFetch, renderRoute, type MockRoute } from '@/test/utils';
import { AppPasswordsCard } from './app-passwords-card';

afterEach(() => vi.unstubAllGlobals());

const existing = { id: 'p1', name: 'Laptop WebDAV', createdAt: new Date(Date.now() - 86_400_000).toISOString(), lastUsedAt: null };

function setup(routes: MockRoute[]) {
  const mock = mockFetch(routes);
  const user = userEvent.setup();
  renderRoute(
    <>
      <AppPasswordsCard username="ann" />
      <Toaster />
    </>,
  );
  return { ...mock, user };
}

describe('AppPasswordsCard', () => {
  it('creates an app password and shows its secret once, with the username to use', async () => {
    const { calls, user } = setup([
      { path: '/api/admin/me/app-passwords', body: { items: [existing] } },
      {
        method: 'POST',
        path: '/api/admin/me/app-passwords',
        status: 201,
        body: { id: 'p2', name: 'Phone calendar', createdAt: new Date().toISOString(), lastUsedAt: null, secret: 's3cret-value' },
      },
    ]);
    expect(await screen.findByText('Laptop WebDAV')).toBeInTheDocument();
    expect(screen.getByText('Never')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name of the new app password'), 'Phone calendar');
    await user.click(screen.getByRole('button', { name: /create app password/i }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('App password')).toHaveValue('s3cret-value');
    expect(within(dialog).getByText('ann')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Phone calendar' });
  });

  it('shows the server error on the name field', async () => {
    const { user } = setup([
      { path: '/api/admin/me/app-passwords', body: { items: [] } },
      {
        method: 'POST',
        path: '/api/admin/me/app-passwords',
        status: 409,
        body: { error: { code: 'conflict', message: 'name: exists', fields: [{ field: 'name', message: 'an app password named "x" already exists' }] } },
      },
    ]);
    expect(await screen.findByText('No app passwords')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name of the new app password'), 'x');
    await user.click(screen.getByRole('button', { name: /create app password/i }));
    expect(await screen.findByText('an app password named "x" already exists')).toBeInTheDocument();
  });

  it('revokes after confirmation', async () => {
    const { calls, user } = setup([
      { path: '/api/admin/me/app-passwords', body: { items: [existing] } },
      { method: 'DELETE', path: '/api/admin/me/app-passwords/p1', status: 204 },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Revoke Laptop WebDAV' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/admin/me/app-passwords/p1')).toBe(true));
  });
});
