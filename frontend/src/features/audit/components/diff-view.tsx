import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/icons';
import type { AuditChange } from '@/lib/api-types';
import { fieldLabel, REDACTED, valueText } from './describe';

function Value({ v }: { v: unknown }) {
  const { t } = useTranslation('audit');
  if (v === REDACTED) {
    return (
      <span className="audit-secret">
        <Icon name="lock" size={12} /> {t('diff.secret')}
      </span>
    );
  }
  const text = valueText(v);
  if (text === null) return <span className="faint">{t('diff.notSet')}</span>;
  if (text === '') return <span className="faint">{t('diff.empty')}</span>;
  return <span className={text.includes('\n') ? 'audit-value audit-json' : 'audit-value'}>{text}</span>;
}

/**
 * One row per changed field: its name as a person reads it, what it was and what it
 * became. Secrets are never recorded; they read "hidden (secret)" on both sides.
 */
export function DiffView({ changes }: { changes: AuditChange[] }) {
  const { t } = useTranslation('audit');
  if (changes.length === 0) return <p className="small muted">{t('diff.noFieldChanges')}</p>;
  // Something created (or deleted) has one side only: a column of "not set" says nothing.
  const absent = (v: unknown) => v === null || v === undefined;
  const created = changes.every((c) => absent(c.before));
  const deleted = !created && changes.every((c) => absent(c.after));
  if (created || deleted) {
    return (
      <table className="table audit-diff">
        <caption className="sr-only">{t('diff.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('diff.field')}</th>
            <th scope="col">{created ? t('diff.setTo') : t('diff.was')}</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c) => (
            <tr key={c.path}>
              <th scope="row" className="small" title={c.path}>
                {fieldLabel(c.path)}
              </th>
              <td className="small" data-label={created ? t('diff.setTo') : t('diff.was')}>
                <Value v={created ? c.after : c.before} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  return (
    <table className="table audit-diff">
      <caption className="sr-only">{t('diff.caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('diff.field')}</th>
          <th scope="col">{t('diff.before')}</th>
          <th scope="col">{t('diff.after')}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => (
          <tr key={c.path}>
            <th scope="row" className="small" title={c.path}>
              {fieldLabel(c.path)}
            </th>
            <td className="small audit-before" data-label={t('diff.before')}>
              <Value v={c.before} />
            </td>
            <td className="small audit-after" data-label={t('diff.after')}>
              <Value v={c.after} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
