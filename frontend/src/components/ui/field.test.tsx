import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Field } from './field';

describe('Field', () => {
  it.each([
    ['hint alone', 'At least 10 characters.', undefined, ['At least 10 characters.']],
    ['error repeating the hint shows once', 'At least 10 characters.', 'At least 10 characters', ['At least 10 characters']],
    ['a different error keeps the hint', 'At least 10 characters.', 'At most 256 characters', ['At least 10 characters.', 'At most 256 characters']],
  ])('%s', (_name, hint, error, texts) => {
    const { container } = render(
      <Field label="Password" hint={hint} error={error}>
        <input />
      </Field>,
    );
    const shown = [...container.querySelectorAll('.field-hint, .field-error')].map((n) => n.textContent);
    expect(shown).toEqual(texts);
    const described = screen.getByLabelText('Password').getAttribute('aria-describedby') ?? '';
    expect(described.split(' ').filter(Boolean)).toHaveLength(texts.length);
  });
});
