import { describe, expect, it } from 'vitest';
import { asSentence, joinNames } from './format';

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
