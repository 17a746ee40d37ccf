import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Domain } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { DomainsPage } from './domains-page';

const domain = (id: string, name: string): Domain => ({
  id,
  name,
  domain: name,
  certResolver: '',
  wildcard: false,
  isDefault: id === 'd1',
  certConfigs: [],
  https: { redirect: false, hsts: { maxAge: 0, includeSubdomains: false, preload: false } },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

const services = ['f', 'e', 'd', 'c', 'b', 'a'].map((n, i) => ({ id: `s${i}`, name: n, domainId: 'd1' }));

afterEach(() => vi.unstubAllGlobals());

describe('DomainsPage', () => {
  it('disables deleting a domain services use, naming them and how many more', async () => {
    const { calls } = mockFetch([
      { path: '/api/admin/me', body: { user: { id: 'u1', username: 'ann', role: 'admin' } } },
      { path: '/api/domains', body: { items: [domain('d1', 'example.com'), domain('d2', 'example.org')] } },
      { path: '/api/services', body: { items: services } },
      { method: 'DELETE', path: '/api/domains/d2', status: 204 },
    ]);
    const user = userEvent.setup();
    renderRoute(<DomainsPage />);
    await user.click(await screen.findByRole('button', { name: 'Delete example.com' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('6 services use this domain: a, b, c, d, e and 1 more.');
    expect(dialog).toHaveTextContent('Move these services to another domain or delete them first.');
    expect(within(dialog).getByRole('button', { name: 'Delete domain' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: 'Delete example.org' }));
    const free = await screen.findByRole('dialog');
    expect(free).toHaveTextContent('No service uses this domain.');
    await user.click(within(free).getByRole('button', { name: 'Delete domain' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/domains/d2')).toBe(true));
  });

  it('closes an untouched domain form at once, and asks before dropping typed changes', async () => {
    mockFetch([
      { path: '/api/admin/me', body: { user: { id: 'u1', username: 'ann', role: 'admin' } } },
      { path: '/api/domains', body: { items: [{ ...domain('d1', 'example.com'), certConfigs: [{ main: 'example.org', sans: ['*.example.org'], resolver: '' }], https: { redirect: true, hsts: { maxAge: 31536000, includeSubdomains: true, preload: false } } }] } },
      { path: '/api/services', body: { items: [] } },
    ]);
    const user = userEvent.setup();
    renderRoute(<DomainsPage />);
    await user.click(await screen.findByRole('button', { name: 'Edit example.com' }));
    let dialog = screen.getByRole('dialog', { name: 'Edit example.com' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit example.com' }));
    dialog = screen.getByRole('dialog', { name: 'Edit example.com' });
    await user.type(within(dialog).getByLabelText('Display name'), 'Home');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Discard unsaved changes?' })).getByRole('button', { name: 'Discard changes' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  }, 30_000);

  it('cleans a pasted https://Example.com/ and refuses a path', async () => {
    const { calls } = mockFetch([
      { path: '/api/admin/me', body: { user: { id: 'u1', username: 'ann', role: 'admin' } } },
      { path: '/api/domains', body: { items: [domain('d1', 'example.com')] } },
      { path: '/api/services', body: { items: [] } },
      { method: 'POST', path: '/api/domains', status: 201, body: domain('d3', 'pasted.example.net') },
    ]);
    const user = userEvent.setup();
    renderRoute(<DomainsPage />);
    await user.click((await screen.findAllByRole('button', { name: 'Add domain' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Add a domain' });
    const field = within(dialog).getByLabelText('Domain');
    await user.click(field);
    await user.paste('https://Pasted.Example.net/app');
    expect(field).toHaveValue('pasted.example.net/app');
    await user.click(within(dialog).getByRole('button', { name: 'Add domain' }));
    expect(await within(dialog).findByText('Enter the domain alone, such as example.com (no port or path)')).toBeInTheDocument();
    await user.clear(field);
    await user.paste('https://Pasted.Example.net/');
    expect(field).toHaveValue('pasted.example.net');
    await user.click(within(dialog).getByRole('button', { name: 'Add domain' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ domain: 'pasted.example.net' });
  }, 30_000);
});
