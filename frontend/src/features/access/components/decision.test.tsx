import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LogDecisionBadge, LogReason } from './decision';

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
    ['no_credentials', 'basic auth', 'No credentials'],
    ['missing_credentials', 'basic auth', 'No credentials'],
  ] as const)('the reason %s (by %s) reads %s', (reason, by, label) => {
    render(<LogDecisionBadge decision="unauthenticated" by={by} reason={reason} />);
    expect(screen.getByText(label)).toBeInTheDocument();
  });
});

describe('LogReason', () => {
  it('shows a reason the badge does not already say', () => {
    render(<LogReason reason="session expired" />);
    expect(screen.getByTestId('log-reason')).toHaveTextContent('session expired');
  });

  it.each([['wrong_password'], ['no_credentials'], [undefined]])('stays empty for %s', (reason) => {
    const { container } = render(<LogReason reason={reason} />);
    expect(container).toBeEmptyDOMElement();
  });
});
