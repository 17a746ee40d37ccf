import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { TokensCard } from './tokens-card';

afterEach(() => vi.unstubAllGlobals());

describe('TokensCard', () => {
  it('turns machine tokens on with a token header and saves like the other protections', async () => {
    const { calls } = mockFetch([{ method: 'POST', path: '/api/services/s1/security-configs', body: { type: 'tokens', enabled: true, header: 'X-Api-Key' } }]);
    const user = userEvent.setup();
    renderRoute(<TokensCard serviceId="s1" config={undefined} />);
    expect(screen.getByRole('button', { name: 'Save machine tokens' })).toBeDisabled();
    expect(screen.getByLabelText(/Token header/)).toBeDisabled();
    await user.click(screen.getByRole('switch', { name: 'Accept machine tokens' }));
    await user.type(screen.getByLabelText(/Token header/), 'X-Api-Key');
    await user.click(screen.getByRole('button', { name: 'Save machine tokens' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ type: 'tokens', enabled: true, header: 'X-Api-Key' }));
  });
});
