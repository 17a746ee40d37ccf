import { describe, expect, it } from 'vitest';
import { isIpOrCidr } from './netaddr';

// The same cases as Go's netip.ParseAddr / ParsePrefix answer them.
describe('isIpOrCidr', () => {
  it.each([
    ['10.0.0.0/8', true],
    ['10.0.0.300/8', false],
    ['10.0.0.1', true],
    ['10.0.0.1/33', false],
    ['010.0.0.1', false],
    ['10.0.0', false],
    ['10.0.0.0/08', false],
    ['::1', true],
    ['::1/128', true],
    ['::1/129', false],
    ['fe80::/10', true],
    ['2001:db8::1:2:3:4:5', true],
    ['2001:db8:0:0:0:0:0:1', true],
    ['2001:db8:0:0:0:0:0:0:1', false],
    ['1::2::3', false],
    ['::ffff:10.0.0.1', true],
    ['::ffff:10.0.0.300', false],
    ['fe80::1%eth0', false],
    ['12345::', false],
    ['', false],
    ['example.com', false],
  ])('%s → %s', (s, ok) => {
    expect(isIpOrCidr(s)).toBe(ok);
  });
});
