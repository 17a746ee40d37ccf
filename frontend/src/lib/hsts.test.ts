import { describe, expect, it } from 'vitest';
import { describeHsts, hstsIssues, mapHttpsPath } from './hsts';

describe('hsts', () => {
  it.each([
    [{ hstsMaxAge: 31536000, hstsIncludeSubdomains: true, hstsPreload: true }, []],
    [{ hstsMaxAge: 600, hstsIncludeSubdomains: false, hstsPreload: false }, []],
    [{ hstsMaxAge: 0, hstsIncludeSubdomains: false, hstsPreload: false }, ['hstsMaxAge']],
    [{ hstsMaxAge: 63072001, hstsIncludeSubdomains: false, hstsPreload: false }, ['hstsMaxAge']],
    [{ hstsMaxAge: 1.5, hstsIncludeSubdomains: false, hstsPreload: false }, ['hstsMaxAge']],
    [{ hstsMaxAge: 600, hstsIncludeSubdomains: true, hstsPreload: true }, ['hstsPreload']],
    [{ hstsMaxAge: 31536000, hstsIncludeSubdomains: false, hstsPreload: true }, ['hstsPreload']],
  ])('checks %o as the server does', (v, want) => {
    expect(hstsIssues(v).map((i) => i.path)).toEqual(want);
  });

  it('maps server paths to form fields', () => {
    expect(mapHttpsPath('https.redirect')).toBe('httpsRedirect');
    expect(mapHttpsPath('https.hsts.preload')).toBe('hstsPreload');
    expect(mapHttpsPath('https.hsts.maxAge')).toBe('hstsMaxAge');
    expect(mapHttpsPath('name')).toBeNull();
  });

  it('describes a policy', () => {
    expect(describeHsts({ maxAge: 0, includeSubdomains: false, preload: false })).toBe('off');
    expect(describeHsts({ maxAge: 60, includeSubdomains: true, preload: true })).toBe('max-age 60s, subdomains, preload');
  });
});
