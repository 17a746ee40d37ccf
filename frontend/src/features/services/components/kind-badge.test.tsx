import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { isStream, KindBadge } from './kind-badge';

describe('KindBadge', () => {
  it.each([
    ['tcp', 'TCP', /connections of its entrypoints/],
    ['udp', 'UDP', /datagrams of its entrypoints/],
  ] as const)('says %s beside the name, with why in its title', (kind, text, title) => {
    render(<KindBadge kind={kind} />);
    const badge = screen.getByText(text);
    expect(badge).toHaveClass('badge', 'badge-info');
    expect(badge.getAttribute('title')).toMatch(title);
  });

  it.each(['proxy', 'redirect', undefined] as const)('shows nothing for an HTTP service (%s)', (kind) => {
    const { container } = render(<KindBadge kind={kind} />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('isStream', () => {
  it.each([
    ['tcp', true],
    ['udp', true],
    ['proxy', false],
    ['redirect', false],
    [undefined, false],
  ] as const)('%s -> %s', (kind, want) => expect(isStream(kind)).toBe(want));
});
