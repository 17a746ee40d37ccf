import { useTranslation } from 'react-i18next';
import { Badge, type Tone } from '@/components/ui/badge';
import type { IconName } from '@/components/ui/icons';
import type { AccessAction, AccessDecision } from '@/lib/api-types';

const actions: Record<AccessAction, { tone: Tone; icon: IconName }> = {
  allow: { tone: 'success', icon: 'checkCircle' },
  deny: { tone: 'danger', icon: 'xCircle' },
  authenticate: { tone: 'warning', icon: 'lock' },
};

/** The tester's verdict: text and icon carry the meaning, colour only repeats it. */
export function DecisionBadge({ decision, large }: { decision: AccessAction; large?: boolean }) {
  const { t } = useTranslation('access');
  const known = actions[decision];
  const d = { tone: known?.tone ?? ('neutral' as Tone), icon: known?.icon ?? ('info' as IconName), label: known ? t(`decision.${decision}`) : decision };
  return (
    <span className={large ? 'decision-large' : undefined} data-testid="decision">
      <Badge tone={d.tone} icon={d.icon}>
        {d.label}
      </Badge>
    </span>
  );
}

export const logDecisions: Record<AccessDecision, { tone: Tone; icon: IconName }> = {
  allowed: { tone: 'success', icon: 'checkCircle' },
  authenticated: { tone: 'info', icon: 'user' },
  denied: { tone: 'danger', icon: 'xCircle' },
  unauthenticated: { tone: 'warning', icon: 'lock' },
  forbidden: { tone: 'danger', icon: 'x' },
  rate_limited: { tone: 'warning', icon: 'clock' },
};

/**
 * A logged decision's badge. A refusal on basic auth is a wrong username or password; any other
 * sign-in asked for came without credentials.
 */
export function LogDecisionBadge({ decision, by }: { decision: AccessDecision; by?: string }) {
  const { t } = useTranslation('access');
  const known = logDecisions[decision];
  let d = { tone: known?.tone ?? ('neutral' as Tone), icon: known?.icon ?? ('info' as IconName), label: known ? t(`logDecision.${decision}`) : decision };
  if (decision === 'unauthenticated') d = { ...d, label: by === 'basic auth' ? t('logDecision.wrongPassword') : t('logDecision.noCredentials') };
  return (
    <Badge tone={d.tone} icon={d.icon}>
      {d.label}
    </Badge>
  );
}
