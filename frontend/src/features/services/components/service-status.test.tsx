import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Service, ServiceBadge } from '@/lib/api-types';
import { ServiceStatus } from './service-status';

const now = Date.parse('2026-01-01T00:00:00Z');
const svc = {
  id: 's1',
  name: 'Wiki',
  enabled: true,
  expiresAt: null,
} as Service;
const live: ServiceBadge = { serviceId: 's1', state: 'live', message: 'Traefik runs its routers.', errors: [], routers: [] };

describe('ServiceStatus', () => {
  it('is not Live for an enabled service until Traefik says so', () => {
    render(<ServiceStatus service={svc} now={now} />);
    expect(screen.queryByText('Live')).toBeNull();
    expect(screen.getByText('Checking')).toBeInTheDocument();
  });

  it("shows Traefik's evidence and the expiry countdown side by side", () => {
    render(<ServiceStatus service={{ ...svc, expiresAt: '2026-01-01T02:00:00Z' }} now={now} evidence={{ ...live, state: 'waiting' }} />);
    expect(screen.getByText('Waiting')).toBeInTheDocument();
    expect(screen.getByText('2h left')).toBeInTheDocument();
  });

  it('says Disabled whatever the evidence', () => {
    render(<ServiceStatus service={{ ...svc, enabled: false }} now={now} evidence={live} />);
    expect(screen.getByText('Disabled')).toBeInTheDocument();
    expect(screen.queryByText('Live')).toBeNull();
  });
});
