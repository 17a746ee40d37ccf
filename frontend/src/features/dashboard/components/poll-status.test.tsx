import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ProxyStatus } from '@/lib/api-types';
import { PollStatus } from './poll-status';

const never: ProxyStatus['poll'] = {
  polled: false,
  last: null,
  ageSeconds: 0,
  intervalSeconds: 5,
  intervalMeasured: false,
  stopped: false,
  current: false,
  behind: 0,
  behindKnown: false,
  currentEtag: '"a"',
  configUrl: 'http://10.0.0.2:8080',
  snippet: 'providers:\n  http:\n    endpoint: "http://10.0.0.2:8080/api/proxy/config"\n',
  setups: [
    {
      variant: 'docker',
      providerUrl: 'http://gatehouse:8080',
      traefikYml: 'providers:\n  http:\n    endpoint: "http://gatehouse:8080/api/proxy/config"\nmetrics:\n  prometheus: {}\n',
      env: 'PANEL_INTERNAL_URL=http://gatehouse:8080\n',
      warnings: ['PANEL_INTERNAL_URL is not set'],
    },
    {
      variant: 'host',
      providerUrl: 'http://127.0.0.1:8080',
      traefikYml: 'providers:\n  http:\n    endpoint: "http://127.0.0.1:8080/api/proxy/config"\n',
      env: 'PANEL_PROXY_API_URL=http://127.0.0.1:8081\n',
      warnings: [],
    },
  ],
  recent: [],
};
const polled: ProxyStatus['poll'] = {
  ...never,
  polled: true,
  last: { at: '2026-01-01T00:00:00Z', remote: '10.0.0.9', etag: '"a"', code: 304 },
  ageSeconds: 3.4,
  intervalMeasured: true,
  current: true,
  behindKnown: true,
};

describe('PollStatus', () => {
  it('offers a complete traefik.yml per way of running Traefik before the first poll', async () => {
    render(<PollStatus poll={never} />);
    expect(screen.getByText('Traefik has never polled the configuration')).toBeInTheDocument();
    expect(screen.getByTestId('setup-provider-snippet')).toHaveTextContent('http://gatehouse:8080/api/proxy/config');
    expect(screen.getByTestId('setup-provider-snippet')).toHaveTextContent('prometheus');
    expect(screen.getByRole('alert')).toHaveTextContent('PANEL_INTERNAL_URL is not set');
    expect(screen.getByRole('button', { name: 'Copy traefik.yml' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Traefik on this host' }));
    expect(screen.getByTestId('setup-provider-snippet')).toHaveTextContent('http://127.0.0.1:8080/api/proxy/config');
    expect(screen.getByTestId('setup-api-env')).toHaveTextContent('PANEL_PROXY_API_URL=http://127.0.0.1:8081');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when Traefik fetched and that it runs the current version', () => {
    render(<PollStatus poll={polled} />);
    expect(screen.getByTestId('poll-line')).toHaveTextContent('Traefik fetched the configuration just now from 10.0.0.9, and runs the current version.');
  });

  it('counts the changes Traefik has not fetched', () => {
    render(<PollStatus poll={{ ...polled, current: false, behind: 2 }} />);
    expect(screen.getByTestId('poll-line')).toHaveTextContent('and is 2 changes behind.');
  });

  it('warns when polls stopped', () => {
    render(<PollStatus poll={{ ...polled, ageSeconds: 40, stopped: true }} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Traefik stopped polling');
    expect(screen.getByRole('alert')).toHaveTextContent('40 seconds ago');
  });
});
