import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect';

const origin = 'https://auth.example.com';

describe('safeRedirect', () => {
  it.each([
    [null, '/'],
    ['', '/'],
    ['https://auth.example.com/account', '/account'],
    ['https://auth.example.com/?x=1#y', '/?x=1#y'],
    ['https://evil.example.com/account', '/'],
    ['http://auth.example.com/account', '/'],
    ['https://auth.example.com:8443/account', '/'],
    ['https://auth.example.com.evil.test/', '/'],
    ['https://user:pw@auth.example.com/', '/'],
    ['//evil.example.com/', '/'],
    ['/account', '/'],
    ['javascript:alert(1)', '/'],
    ['https://auth.example.com//evil.example.com/', '/'],
  ])('%s -> %s', (rd, want) => {
    expect(safeRedirect(rd, origin)).toBe(want);
  });
});
