import { describe, expect, it } from 'vitest';
import { linkValidity } from './link-validity';

const now = Date.parse('2026-03-01T12:00:00Z');
const base = { expiresAt: '2026-03-02T12:00:00Z', usedAt: null, revokedAt: null };

describe('linkValidity', () => {
  it.each([
    ['active', { ...base, status: 'active' as const }, 'expires tomorrow'],
    ['revoked before expiry', { ...base, status: 'revoked' as const, revokedAt: '2026-03-01T11:00:00Z' }, 'revoked 1 hour ago'],
    ['used', { ...base, status: 'used' as const, usedAt: '2026-03-01T11:58:00Z' }, 'used 2 minutes ago'],
    ['expired', { ...base, status: 'expired' as const, expiresAt: '2026-02-28T12:00:00Z' }, 'expired yesterday'],
    ['revoked, time unknown', { ...base, status: 'revoked' as const }, 'revoked'],
  ])('%s', (_name, link, want) => {
    expect(linkValidity(link, now).text).toBe(want);
  });
});
