import { describe, expect, it } from 'vitest';
import { asSentence } from './format';

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
