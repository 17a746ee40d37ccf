import type { MatchRule } from '@/lib/api-types';
import { buildRule } from './rule';

/** Live preview of the Traefik rule the panel will generate for the current form. */
export function RulePreview({ hosts, rules, invalid = false }: { hosts: string[]; rules: MatchRule[]; invalid?: boolean }) {
  // Invalid input is never shown as if it were a rule Traefik would get.
  const rule = invalid ? '' : buildRule(hosts, rules);
  return (
    <div className="stack-sm">
      <div className="field-label" id="rule-preview-label">
        Generated Traefik rule
      </div>
      <output className="rule-preview" aria-labelledby="rule-preview-label" aria-live="polite" data-testid="rule-preview">
        {rule || <span className="faint">{invalid ? 'Fix the match rules above to see the rule.' : 'Add a hostname to see the rule.'}</span>}
      </output>
    </div>
  );
}
