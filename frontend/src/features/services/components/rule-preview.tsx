import { useTranslation } from 'react-i18next';
import type { MatchRule } from '@/lib/api-types';
import { buildRule } from './rule';

/** Live preview of the Traefik rule the panel will generate for the current form. */
export function RulePreview({ hosts, rules, invalid = false }: { hosts: string[]; rules: MatchRule[]; invalid?: boolean }) {
  const { t } = useTranslation('services');
  // Invalid input is never shown as if it were a rule Traefik would get.
  const rule = invalid ? '' : buildRule(hosts, rules);
  return (
    <div className="stack-sm">
      <div className="field-label" id="rule-preview-label">
        {t('rulePreview.label')}
      </div>
      <output className="rule-preview" aria-labelledby="rule-preview-label" aria-live="polite" data-testid="rule-preview">
        {rule || <span className="faint">{invalid ? t('rulePreview.invalid') : t('rulePreview.empty')}</span>}
      </output>
    </div>
  );
}
