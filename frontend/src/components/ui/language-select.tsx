import { useTranslation } from 'react-i18next';
import { changeLanguage, languages, type Language } from '@/lib/i18n';

/** The interface language, each named in its own language; the choice stays in this browser. */
export function LanguageSelect({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const current = (i18n.resolvedLanguage ?? 'en') as Language;
  return (
    <select
      className={`language-select${className ? ` ${className}` : ''}`}
      aria-label={t('language.label')}
      title={t('language.choose')}
      value={current}
      onChange={(e) => void changeLanguage(e.target.value as Language)}
    >
      {languages.map((l) => (
        <option key={l.code} value={l.code} lang={l.code}>
          {l.name}
        </option>
      ))}
    </select>
  );
}
