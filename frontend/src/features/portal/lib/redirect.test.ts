import { describe, expect, it } from 'vitest';
import { safeRedirect, samePortalPath } from './redirect';

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

describe('samePortalPath', () => {
  it.each([
    ['/login?stepup=1&rd=%2Fapps%2Fdevice%3Fuser_code%3DABCD', '/login?stepup=1&rd=%2Fapps%2Fdevice%3Fuser_code%3DABCD'],
    ['/account', '/account'],
    ['', null],
    [null, null],
    ['login', null],
    ['//evil.example/', null],
    ['/\\evil.example/', null],
    ['https://auth.example.com/login', null],
    ['https://evil.example/login', null],
    ['javascript:alert(1)', null],
    ['/\tevil', null],
    ['/\t/evil.example/', null],
    ['/.//evil.example/', null],
    ['/a/..//evil.example/', null],
    ['/a\\b', '/a/b'],
    ['/a\u0000b', null],
    ['/a\nb', null],
  ])('%s -> %s', (path, want) => {
    expect(samePortalPath(path, origin)).toBe(want);
  });
});
