import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { metricsDocsUrl, TrafficEmpty, TrafficError } from './chart-state';

describe('TrafficEmpty', () => {
  it('says Traefik’s metrics are not configured, with the server’s reason and the way to enable them', () => {
    render(<TrafficEmpty state="no_metrics" reason="PANEL_PROXY_API_URL is not set" />);
    expect(screen.getByText("Traefik's metrics are not configured")).toBeInTheDocument();
    expect(screen.getByText(/PANEL_PROXY_API_URL is not set\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "How to enable Traefik's metrics" })).toHaveAttribute('href', metricsDocsUrl);
  });

  it('explains missing metrics in its own words when the server gives no reason', () => {
    render(<TrafficEmpty state="no_metrics" />);
    expect(screen.getByText(/cannot reach/)).toBeInTheDocument();
  });

  it('says there is no traffic yet in the page’s language, whatever the server wrote', () => {
    render(<TrafficEmpty state="no_traffic" reason="No request has been recorded in this range yet." />);
    expect(screen.getByText('No traffic yet')).toBeInTheDocument();
    expect(screen.getByText(/Nothing has been recorded in this period/)).toBeInTheDocument();
    expect(screen.queryByText(/No request has been recorded/)).not.toBeInTheDocument();
  });

  it('shows nothing when there is data', () => {
    const { container } = render(<TrafficEmpty state="ok" />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('TrafficError', () => {
  it('shows the failure with its message', () => {
    render(<TrafficError error={new ApiError({ status: 500, code: 'internal', message: 'database is locked' })} />);
    expect(screen.getByText('Could not load the traffic history')).toBeInTheDocument();
    expect(screen.getByText('database is locked')).toBeInTheDocument();
  });
});
