import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LogDecisionBadge } from './decision';

describe('LogDecisionBadge', () => {
  it.each([
    ['unauthenticated', 'basic auth', 'Wrong password'],
    ['unauthenticated', 'default action', 'No credentials'],
    ['unauthenticated', 'service rule 2', 'No credentials'],
    ['authenticated', 'basic auth', 'Authenticated'],
    ['denied', 'global rule 1', 'Denied'],
  ] as const)('%s by %s reads %s', (decision, by, label) => {
    render(<LogDecisionBadge decision={decision} by={by} />);
    expect(screen.getByText(label)).toBeInTheDocument();
  });
});
