import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RuntimeBanner } from './states';

describe('RuntimeBanner', () => {
  it('warns when Traefik is unreachable', () => {
    render(<RuntimeBanner status={{ configured: true, reachable: false, error: 'connection refused' }} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Traefik is unreachable');
    expect(screen.getByRole('alert')).toHaveTextContent('connection refused');
  });

  it('shows nothing when all is well', () => {
    const { container } = render(<RuntimeBanner status={{ configured: true, reachable: true, error: '' }} />);
    expect(container).toBeEmptyDOMElement();
  });
});
