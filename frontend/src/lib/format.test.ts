import { describe, expect, it } from 'vitest';
import { asSentence, formatRelative, formatVersion, joinNames } from './format';

describe('asSentence', () => {
  it.each([
    ['too many failed sign-in attempts; try again in 12 minutes', 'Too many failed sign-in attempts; try again in 12 minutes.'],
    ['Already a sentence.', 'Already a sentence.'],
    ['  is it?  ', 'Is it?'],
    ['', ''],
  ])('%j', (text, want) => {
    expect(asSentence(text)).toBe(want);
  });
});

describe('formatVersion', () => {
  it.each([
    ['1.2.3', 'v1.2.3'],
    ['v1.2.3', 'v1.2.3'],
    ['v2.0.0-rc.1', 'v2.0.0-rc.1'],
    ['5a12f6c', 'development build 5a12f6c'],
    ['5a12f6c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6', 'development build 5a12f6c'],
    ['5a12f6c-dirty', 'development build 5a12f6c (modified)'],
    ['v1.2.3-4-g5a12f6c', 'development build 5a12f6c'],
    ['v1.2.3-4-g5a12f6c-dirty', 'development build 5a12f6c (modified)'],
    ['0.1.0-dev', 'development build 0.1.0-dev'],
    ['dev', 'development build dev'],
    ['', ''],
  ])('%s', (raw, want) => {
    expect(formatVersion(raw)).toBe(want);
  });
});

describe('joinNames', () => {
  it.each<[string[], number, number | undefined, string]>([
    [['a'], 5, undefined, 'a'],
    [['a', 'b', 'c'], 5, undefined, 'a, b and c'],
    [['a', 'b', 'c', 'd', 'e', 'f'], 5, undefined, 'a, b, c, d, e and 1 more'],
    [['a', 'b'], 5, 4, 'a, b and 2 more'],
    [[], 5, 3, '3 more'],
  ])('%j (max %i, total %s) reads %s', (names, max, total, want) => {
    expect(joinNames(names, max, total)).toBe(want);
  });
});

describe('formatRelative', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  it.each([
    ['2026-01-01T12:00:00Z', 'just now'],
    ['2026-01-01T11:59:30Z', 'just now'],
    ['2026-01-01T12:00:20Z', 'in a moment'],
    ['2026-01-01T11:58:00Z', '2 minutes ago'],
    ['2026-01-01T09:00:00Z', '3 hours ago'],
    ['2025-12-30T12:00:00Z', '2 days ago'],
  ])('%s is %s', (iso, want) => {
    expect(formatRelative(iso, now)).toBe(want);
  });
});
