import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { ErrorState, RuntimeBanner } from './states';

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

describe('ErrorState', () => {
  it('shows the request id of a server error, ready to copy', () => {
    render(<ErrorState error={new ApiError({ status: 500, code: 'internal', message: 'internal error', requestId: 'req-42' })} />);
    expect(screen.getByRole('alert')).toHaveTextContent('internal error');
    expect(screen.getByTestId('request-id')).toHaveTextContent('Request ID req-42');
    expect(screen.getByRole('button', { name: 'Copy ID' })).toBeInTheDocument();
  });

  it('has no request id line without one', () => {
    render(<ErrorState error={new Error('offline')} />);
    expect(screen.queryByTestId('request-id')).toBeNull();
  });
});
