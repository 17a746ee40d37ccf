import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ServiceBadge as Evidence } from '@/lib/api-types';
import { ServiceBadge } from './service-badge';

const base: Evidence = { serviceId: 's1', state: 'live', message: 'Traefik runs its routers.', errors: [], routers: [] };

describe('ServiceBadge', () => {
  it.each([
    ['live', 'Live'],
    ['waiting', 'Waiting'],
    ['error', 'Error'],
    ['unknown', 'Unknown'],
  ] as const)('shows %s as %s', (state, label) => {
    render(<ServiceBadge evidence={{ ...base, state }} />);
    expect(screen.getByText(label)).toBeInTheDocument();
  });

  it('never says Live before the evidence arrived', () => {
    render(<ServiceBadge />);
    expect(screen.getByText('Checking')).toBeInTheDocument();
    expect(screen.queryByText('Live')).toBeNull();
  });

  it("carries Traefik's message in its title", () => {
    render(<ServiceBadge evidence={{ ...base, state: 'error', message: 'Traefik reports an error', errors: ['router a@http: boom'] }} />);
    expect(screen.getByText('Error').closest('span')).toHaveAttribute('title', 'Traefik reports an error\nrouter a@http: boom');
  });
});
