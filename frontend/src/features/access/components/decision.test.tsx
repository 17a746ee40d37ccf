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

describe('LogDecisionBadge with a reason', () => {
  it.each([
    ['wrong_password', 'default action', 'Wrong password'],
    ['missing_credentials', 'basic auth', 'No credentials'],
    ['invalid_token', 'service rule 1', 'Invalid token'],
    ['', 'basic auth', 'Wrong password'],
  ] as const)('the reason "%s" (by %s) reads %s', (reason, by, label) => {
    render(<LogDecisionBadge decision="unauthenticated" by={by} reason={reason} />);
    expect(screen.getByText(label)).toBeInTheDocument();
  });
});
