import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Group } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { RegistrationCard } from './registration';

afterEach(() => vi.unstubAllGlobals());

const groups: Group[] = [{ id: 'g1', name: 'family', description: '', providerName: '', members: [], createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' }];

describe('RegistrationCard', () => {
  it('says invitations are the way in while off, and saves listed domains with default groups', async () => {
    const { calls } = mockFetch([
      { path: '/api/registration/settings', body: { mode: 'off', domains: [], groups: [] } },
      { method: 'PUT', path: '/api/registration/settings', body: { mode: 'domains', domains: ['example.com'], groups: ['g1'] } },
    ]);
    const user = userEvent.setup();
    renderRoute(<RegistrationCard canWrite groups={groups} />);
    expect(await screen.findByRole('option', { name: 'Nobody: by invitation only' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(/Who may create their own account/), 'domains');
    await user.type(screen.getByLabelText(/^E-mail domains/), 'example.com');
    await user.click(screen.getByLabelText('family'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Self-registration settings saved.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ mode: 'domains', domains: ['example.com'], groups: ['g1'] });
  });

  it('names the refused domain by its line', async () => {
    mockFetch([
      { path: '/api/registration/settings', body: { mode: 'domains', domains: ['example.com'], groups: [] } },
      {
        method: 'PUT',
        path: '/api/registration/settings',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'invalid', fields: [{ field: 'domains[1]', message: 'must be a domain name such as example.com' }] } },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<RegistrationCard canWrite groups={[]} />);
    const box = await screen.findByLabelText(/^E-mail domains/);
    await user.type(box, '{End}{Enter}not a domain');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Domain on line 2: must be a domain name such as example.com')).toBeInTheDocument();
  });

  it('lets a viewer read but not change', async () => {
    mockFetch([{ path: '/api/registration/settings', body: { mode: 'off', domains: [], groups: [] } }]);
    renderRoute(<RegistrationCard canWrite={false} groups={[]} />);
    expect(await screen.findByLabelText(/Who may create their own account/)).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });
});
