import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldControl } from './field';
import { Icon } from './icons';
import { useInsideReadOnly } from './read-only';

type Props = {
  value: string[];
  onChange: (v: string[]) => void;
  suggestions?: string[];
  placeholder?: string;
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  /** Optional check run before a value is added; return an error message to refuse it. */
  validate?: (v: string) => string | null;
  suggestionLabel?: string;
  disabled?: boolean;
};

/** A list of short strings as removable chips, with one-click suggestions. */
export function TagInput({ value, onChange, suggestions = [], placeholder, id, validate, suggestionLabel, disabled, ...aria }: Props) {
  const { t } = useTranslation(['components', 'common']);
  const readOnly = useInsideReadOnly() || !!disabled;
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const listId = useId();
  const ctx = useFieldControl();
  const inputId = id ?? ctx?.id;
  const invalid = aria['aria-invalid'] ?? (ctx?.invalid || undefined);
  const describedBy = aria['aria-describedby'] ?? ctx?.describedBy;

  const add = (raw: string) => {
    const v = raw.trim();
    if (!v) return;
    if (value.includes(v)) {
      setDraft('');
      return;
    }
    const problem = validate?.(v) ?? null;
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    onChange([...value, v]);
    setDraft('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      add(draft);
    } else if (e.key === 'Backspace' && !draft && value.length) {
      onChange(value.slice(0, -1));
    }
  };

  const remaining = readOnly ? [] : suggestions.filter((s) => !value.includes(s));
  return (
    <div className="stack-sm">
      <div className="tags" aria-invalid={invalid}>
        {value.map((v) => (
          <span className="tag" key={v}>
            {v}
            {readOnly ? null : (
              <button type="button" aria-label={t('tagInput.remove', { value: v })} onClick={() => onChange(value.filter((x) => x !== v))}>
                <Icon name="x" size={12} />
              </button>
            )}
          </span>
        ))}
        <input
          id={inputId}
          value={draft}
          placeholder={value.length || readOnly ? '' : placeholder}
          disabled={readOnly}
          list={remaining.length ? listId : undefined}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => add(draft)}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        />
        {remaining.length ? (
          <datalist id={listId}>
            {remaining.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        ) : null}
      </div>
      {error ? <div className="field-error" role="alert">{error}</div> : null}
      {remaining.length ? (
        <div className="suggestions" aria-label={suggestionLabel ?? t('tagInput.suggestions')}>
          {remaining.slice(0, 12).map((s) => (
            <button type="button" className="suggestion" key={s} onClick={() => add(s)} aria-label={t('tagInput.add', { value: s })}>
              + {s}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
