// Answers of the traffic history API for unit tests.
import type { ServicesTraffic, Traffic } from '@/lib/api-types';

const t0 = Date.UTC(2026, 10, 26, 10, 0, 0) / 1000;

/** One hour in minute steps: a few requests each minute, a 5xx now and then, one hour of health. */
export function trafficFixture(over: Partial<Traffic> = {}): Traffic {
  const n = 60;
  const time = Array.from({ length: n }, (_, i) => t0 + i * 60);
  const per = (f: (i: number) => number | null) => Array.from({ length: n }, (_, i) => f(i));
  return {
    source: 'panel',
    state: 'ok',
    reason: '',
    from: new Date(t0 * 1000).toISOString(),
    to: new Date((t0 + n * 60) * 1000).toISOString(),
    stepSeconds: 60,
    time,
    series: {
      requests2xx: per(() => 10),
      requests3xx: per(() => 1),
      requests4xx: per((i) => (i % 10 === 0 ? 2 : 0)),
      requests5xx: per((i) => (i % 20 === 0 ? 1 : 0)),
      latencyP50Ms: per(() => 12),
      latencyP95Ms: per(() => 40),
      latencyP99Ms: per((i) => (i === 5 ? null : 90)),
      bytesIn: per(() => 2048),
      bytesOut: per(() => 65536),
      allowed: per(() => 8),
      signedIn: per(() => 1),
      challenged: per((i) => (i % 5 === 0 ? 1 : 0)),
      denied: per((i) => (i === 30 ? 3 : 0)),
      rateLimited: per(() => 0),
      up: per((i) => (i < 40 ? 1 : i < 45 ? 0 : i < 50 ? null : 1)),
    },
    totals: { requests: 690, errors5xx: 3, bytesIn: 122880, bytesOut: 3932160, denied: 3 },
    ...over,
  };
}

/** Every series without a value (the server's empty lists). */
export function noSeries(): Traffic['series'] {
  return {
    requests2xx: [], requests3xx: [], requests4xx: [], requests5xx: [],
    latencyP50Ms: [], latencyP95Ms: [], latencyP99Ms: [],
    bytesIn: [], bytesOut: [],
    allowed: [], signedIn: [], challenged: [], denied: [], rateLimited: [],
    up: [],
  };
}

export function emptyTraffic(state: 'no_metrics' | 'no_traffic', reason: string): Traffic {
  return { source: 'panel', state, reason, from: new Date(t0 * 1000).toISOString(), to: new Date((t0 + 3600) * 1000).toISOString(), stepSeconds: 60, time: [], series: noSeries(), totals: { requests: 0, errors5xx: 0, bytesIn: 0, bytesOut: 0, denied: 0 } };
}

export function servicesTrafficFixture(): ServicesTraffic {
  return {
    source: 'panel',
    state: 'ok',
    reason: '',
    stepSeconds: 3600,
    time: Array.from({ length: 24 }, (_, i) => t0 + i * 3600),
    services: [
      { serviceId: 's1', name: 'Nextcloud', requests: 5000, errors5xx: 10, errorRatio: 0.002, points: Array.from({ length: 24 }, (_, i) => 100 + i) },
      { serviceId: 's2', name: 'Grafana', requests: 800, errors5xx: 120, errorRatio: 0.15, points: Array.from({ length: 24 }, (_, i) => (i % 2 ? 30 : 40)) },
      { serviceId: 's3', name: 'Idle', requests: 0, errors5xx: 0, errorRatio: 0, points: [] },
    ],
  };
}
