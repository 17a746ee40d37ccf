import { useTranslation } from 'react-i18next';
import { Badge, type Tone } from '@/components/ui/badge';
import type { IconName } from '@/components/ui/icons';
import type { AccessAction, AccessDecision, AccessLogReason } from '@/lib/api-types';

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

const reasons: Record<Exclude<AccessLogReason, ''>, 'logDecision.wrongPassword' | 'logDecision.noCredentials' | 'logDecision.invalidToken'> = {
  wrong_password: 'logDecision.wrongPassword',
  missing_credentials: 'logDecision.noCredentials',
  invalid_token: 'logDecision.invalidToken',
};

/**
 * A logged decision's badge. A request asked to sign in came without credentials, with a wrong
 * username or password, or with a token that is not valid: the entry's reason says which.
 * Without one (an entry from before reasons were kept), a refusal on basic auth reads as a
 * wrong password and any other as no credentials.
 */
export function LogDecisionBadge({ decision, by, reason }: { decision: AccessDecision; by?: string; reason?: AccessLogReason }) {
  const { t } = useTranslation('access');
  const known = logDecisions[decision];
  let d = { tone: known?.tone ?? ('neutral' as Tone), icon: known?.icon ?? ('info' as IconName), label: known ? t(`logDecision.${decision}`) : decision };
  const because = reason ? reasons[reason] : undefined;
  if (because) d = { ...d, label: t(because) };
  else if (decision === 'unauthenticated') d = { ...d, label: by === 'basic auth' ? t('logDecision.wrongPassword') : t('logDecision.noCredentials') };
  return (
    <Badge tone={d.tone} icon={d.icon}>
      {d.label}
    </Badge>
  );
}
