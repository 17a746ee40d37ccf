import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { SessionsPage } from './sessions-page';

afterEach(() => vi.unstubAllGlobals());

describe('SessionsPage', () => {
  it('shows a session opened with an e-mail code by its address and how it came', async () => {
    mockFetch([
      { path: '/api/admin/me', body: { user: { id: 'u1', username: 'admin', role: 'admin' } } },
      {
        path: '/api/sessions',
        body: {
          items: [
            {
              id: 'x1', serviceId: 's1', serviceName: 'Photos', user: 'ann@example.com', email: 'ann@example.com', name: '', groups: [],
              kind: 'email_code', sharedLinkId: null, createdAt: '2026-11-22T09:00:00Z', lastSeenAt: '2026-11-22T09:00:00Z', expiresAt: '2026-11-23T09:00:00Z',
            },
          ],
        },
      },
    ]);
    renderRoute(<SessionsPage />);
    const row = (await screen.findByText('ann@example.com', { selector: 'strong' })).closest('tr')!;
    expect(within(row).getByText('E-mail code')).toBeInTheDocument();
  });
});
