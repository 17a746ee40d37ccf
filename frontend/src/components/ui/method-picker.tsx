import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { TagInput } from './tag-input';

export const commonMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** WebDAV (RFC 4918), CalDAV and CardDAV methods that sync clients send. */
export const webdavMethods = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'REPORT', 'MKCALENDAR'] as const;
const known = new Set<string>([...commonMethods, ...webdavMethods]);

type Props = {
  value: string[];
  onChange: (v: string[]) => void;
  /** Accessible name of the group, e.g. "Rule 2 methods". */
  label: string;
  invalid?: boolean;
  describedBy?: string;
};

/**
 * HTTP methods as checkboxes (common and WebDAV), plus a tag input for anything else.
 * An empty selection means "any method".
 */
export function MethodPicker({ value, onChange, label, invalid, describedBy }: Props) {
  const { t } = useTranslation(['components', 'common']);
  const id = useId();
  const selected = new Set(value.map((m) => m.toUpperCase()));
  const others = value.filter((m) => !known.has(m.toUpperCase()));
  const toggle = (m: string, on: boolean) => {
    const next = on ? [...value, m] : value.filter((x) => x.toUpperCase() !== m);
    onChange(next);
  };
  const group = (title: string, list: readonly string[]) => (
    <div className="method-group" role="group" aria-label={`${label}: ${title}`}>
      <span className="small muted">{title}</span>
      <div className="method-boxes">
        {list.map((m) => (
          <label key={m} className="method-box">
            <input type="checkbox" checked={selected.has(m)} onChange={(e) => toggle(m, e.target.checked)} aria-describedby={describedBy} />
            <span className="mono">{m}</span>
          </label>
        ))}
      </div>
    </div>
  );
  return (
    <fieldset className="method-picker" aria-invalid={invalid || undefined} aria-describedby={describedBy}>
      <legend className="sr-only">{label}</legend>
      {group(t('methods.common'), commonMethods)}
      {group(t('methods.webdav'), webdavMethods)}
      <div className="method-group">
        <label className="small muted" htmlFor={`${id}-other`}>
          {t('methods.other')}
        </label>
        <TagInput
          id={`${id}-other`}
          value={others}
          onChange={(next) => onChange([...value.filter((m) => known.has(m.toUpperCase())), ...next.map((m) => m.toUpperCase())])}
          placeholder="SEARCH"
          validate={(v) => (/^[A-Za-z]{1,20}$/.test(v) ? null : t('methods.lettersOnly'))}
        />
      </div>
    </fieldset>
  );
}
