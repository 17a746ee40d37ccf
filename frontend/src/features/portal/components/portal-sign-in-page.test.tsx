import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { PortalSignInPage } from './portal-sign-in-page';

afterEach(() => vi.unstubAllGlobals());

describe('PortalSignInPage', () => {
  it('offers "Create an account" when self-registration is on', async () => {
    mockFetch([{ path: '/api/registration', body: { available: true } }]);
    renderRoute(<PortalSignInPage />, { path: '/login', url: '/login' });
    expect(await screen.findByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register');
  });

  it('does not when it is off', async () => {
    mockFetch([{ path: '/api/registration', body: { available: false } }]);
    renderRoute(<PortalSignInPage />, { path: '/login', url: '/login' });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
  });
});
