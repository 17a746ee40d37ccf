import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import type { LauncherService } from '../api/portal';
import { groupServices, LauncherPage } from './launcher-page';

afterEach(() => vi.unstubAllGlobals());

const svc = (id: string, name: string, group: string, order: number, extra: Partial<LauncherService> = {}): LauncherService => ({
  id, name, group, order, description: '', icon: '', url: `https://${id}.example.com/`, ...extra,
});

describe('groupServices', () => {
  it('orders by order, then name, and keeps groups in the order of their first service', () => {
    const out = groupServices([svc('c', 'Calendar', 'Family', 2), svc('p', 'Photos', 'Family', 1), svc('a', 'Alpha', 'Work', 0), svc('b', 'Books', 'Family', 2)]);
    expect(out.map((g) => g.group)).toEqual(['Work', 'Family']);
    expect(out[1]?.services.map((s) => s.name)).toEqual(['Photos', 'Books', 'Calendar']);
  });
});

describe('LauncherPage', () => {
  it('shows each group with its services as links', async () => {
    mockFetch([
      {
        path: '/api/portal/services',
        body: {
          services: [
            svc('photos', 'Photos', 'Family', 1, { description: 'Holiday pictures', icon: 'https://photos.example.com/icon.png' }),
            svc('wiki', 'Wiki', 'Work', 0),
            svc('javascript', 'Odd', 'Work', 1, { url: 'javascript:alert(1)', icon: 'javascript:alert(1)' }),
          ],
        },
      },
    ]);
    renderRoute(<LauncherPage />);
    const family = await screen.findByRole('region', { name: 'Family' });
    const photos = within(family).getByRole('link', { name: /Photos/ });
    expect(photos).toHaveAttribute('href', 'https://photos.example.com/');
    expect(within(family).getByText('Holiday pictures')).toBeInTheDocument();
    const work = screen.getByRole('region', { name: 'Work' });
    expect(within(work).getAllByText(/Wiki|Odd/).map((e) => e.textContent)).toEqual(['Wiki', 'Odd']);
    // A URL that is not a web address is never a link target, nor an icon.
    expect(within(work).getByText('Odd').closest('a')).not.toHaveAttribute('href');
  });

  it('says so in plain words when there is nothing to open', async () => {
    mockFetch([{ path: '/api/portal/services', body: { services: [] } }]);
    renderRoute(<LauncherPage />);
    expect(await screen.findByText('No services yet')).toBeInTheDocument();
  });
});
