import { describe, expect, it } from 'vitest';
import { buildRule, hostnameToFqdn } from './rule';

describe('buildRule', () => {
  it('matches a single host', () => {
    expect(buildRule(['app.example.com'], [])).toBe('Host(`app.example.com`)');
  });

  it('emits rule types in a fixed order', () => {
    expect(buildRule(['a.b'], [{ type: 'method', value: 'GET' }, { type: 'path', value: '/x' }])).toBe('Host(`a.b`) && Path(`/x`) && Method(`GET`)');
  });

  it('ORs hosts and ANDs rule groups, ORing rules of the same type', () => {
    expect(
      buildRule(
        ['grafana.example.com', 'example.com'],
        [
          { type: 'pathPrefix', value: '/api' },
          { type: 'header', name: 'X-Env', value: 'prod' },
          { type: 'pathPrefix', value: '/v2' },
        ],
      ),
    ).toBe(
      '(Host(`grafana.example.com`) || Host(`example.com`)) && (PathPrefix(`/api`) || PathPrefix(`/v2`)) && Header(`X-Env`, `prod`)',
    );
  });

  it('renders every matcher type', () => {
    expect(
      buildRule(['a.b'], [
        { type: 'path', value: '/x' },
        { type: 'query', name: 'q', value: '1' },
        { type: 'method', value: 'GET' },
        { type: 'clientIP', value: '10.0.0.0/8' },
      ]),
    ).toBe('Host(`a.b`) && Path(`/x`) && Query(`q`, `1`) && Method(`GET`) && ClientIP(`10.0.0.0/8`)');
  });

  it('skips incomplete rules while typing', () => {
    expect(buildRule(['a.b'], [{ type: 'header', name: '', value: 'x' }, { type: 'path', value: ' ' }])).toBe('Host(`a.b`)');
  });

  it('uses HostRegexp for wildcard names', () => {
    expect(buildRule(['*.example.com'], [])).toBe('HostRegexp(`^[^.]+\\.example\\.com$`)');
  });
});

describe('hostnameToFqdn', () => {
  const d = { domain: 'example.com' };
  it('derives names from the domain', () => {
    expect(hostnameToFqdn({ type: 'subdomain', value: 'App' }, d)).toBe('app.example.com');
    expect(hostnameToFqdn({ type: 'apex' }, d)).toBe('example.com');
    expect(hostnameToFqdn({ type: 'custom', value: 'x.example.org.' }, d)).toBe('x.example.org');
    expect(hostnameToFqdn({ type: 'subdomain', value: 'app' }, null)).toBe('');
  });
});
