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

// The access log's reasons that tell a wrong password from missing credentials, as the badge
// says them; any other reason is shown as the server wrote it.
const wrongPassword = new Set(['wrong_password', 'invalid_credentials', 'bad_credentials']);
const noCredentials = new Set(['no_credentials', 'missing_credentials']);

/**
 * A logged decision's badge. A request asked to sign in either came with a wrong username or
 * password or without credentials: the entry's reason says which; without one, a refusal on
 * basic auth is a wrong password and any other came without credentials.
 */
export function LogDecisionBadge({ decision, by, reason }: { decision: AccessDecision; by?: string; reason?: string }) {
  const { t } = useTranslation('access');
  const known = logDecisions[decision];
  let d = { tone: known?.tone ?? ('neutral' as Tone), icon: known?.icon ?? ('info' as IconName), label: known ? t(`logDecision.${decision}`) : decision };
  if (decision === 'unauthenticated') {
    const wrong = reason && (wrongPassword.has(reason) || noCredentials.has(reason)) ? wrongPassword.has(reason) : by === 'basic auth';
    d = { ...d, label: wrong ? t('logDecision.wrongPassword') : t('logDecision.noCredentials') };
  }
  return (
    <Badge tone={d.tone} icon={d.icon}>
      {d.label}
    </Badge>
  );
}

/** The entry's reason in words, where the badge does not already say it. */
export function LogReason({ reason }: { reason?: string }) {
  if (!reason || wrongPassword.has(reason) || noCredentials.has(reason)) return null;
  return (
    <div className="small muted" data-testid="log-reason">
      {reason}
    </div>
  );
}
