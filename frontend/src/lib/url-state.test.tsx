import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/test/utils';
import { useUrlParam } from './url-state';

const kinds = ['all', 'on', 'off'] as const;

function Probe() {
  const [q, setQ] = useUrlParam('q');
  const [kind, setKind] = useUrlParam<(typeof kinds)[number]>('kind', 'all', kinds);
  return (
    <>
      <label htmlFor="q">Search</label>
      <input id="q" value={q} onChange={(e) => setQ(e.target.value)} />
      <span data-testid="kind">{kind}</span>
      {kinds.map((k) => (
        <button key={k} type="button" onClick={() => setKind(k)}>
          {k}
        </button>
      ))}
    </>
  );
}

describe('useUrlParam', () => {
  it('reads the URL, writes it back, and leaves defaults out', async () => {
    const user = userEvent.setup();
    const { router } = renderRoute(<Probe />, { path: '/list', url: '/list?q=wiki&kind=off&page=2' });
    expect(screen.getByLabelText('Search')).toHaveValue('wiki');
    expect(screen.getByTestId('kind')).toHaveTextContent('off');
    await user.type(screen.getByLabelText('Search'), 's');
    await user.click(screen.getByRole('button', { name: 'all' }));
    expect(router.state.location.search).toBe('?q=wikis&page=2');
    await user.clear(screen.getByLabelText('Search'));
    expect(router.state.location.search).toBe('?page=2');
    // Typing replaces the history entry instead of adding one per key.
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('reads an unknown value as the fallback', async () => {
    const { router } = renderRoute(<Probe />, { path: '/list', url: '/list?kind=bogus' });
    expect(screen.getByTestId('kind')).toHaveTextContent('all');
    await act(() => router.navigate('/list?kind=on'));
    expect(screen.getByTestId('kind')).toHaveTextContent('on');
  });
});
