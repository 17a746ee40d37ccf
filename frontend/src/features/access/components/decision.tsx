import { Badge, type Tone } from '@/components/ui/badge';
import type { IconName } from '@/components/ui/icons';
import type { AccessAction, AccessDecision } from '@/lib/api-types';

const actions: Record<AccessAction, { tone: Tone; icon: IconName; label: string }> = {
  allow: { tone: 'success', icon: 'checkCircle', label: 'Allowed' },
  deny: { tone: 'danger', icon: 'xCircle', label: 'Denied' },
  authenticate: { tone: 'warning', icon: 'lock', label: 'Sign-in required' },
};

/** The tester's verdict: text and icon carry the meaning, colour only repeats it. */
export function DecisionBadge({ decision, large }: { decision: AccessAction; large?: boolean }) {
  const d = actions[decision] ?? { tone: 'neutral' as Tone, icon: 'info' as IconName, label: decision };
  return (
    <span className={large ? 'decision-large' : undefined} data-testid="decision">
      <Badge tone={d.tone} icon={d.icon}>
        {d.label}
      </Badge>
    </span>
  );
}

export const logDecisions: Record<AccessDecision, { tone: Tone; icon: IconName; label: string }> = {
  allowed: { tone: 'success', icon: 'checkCircle', label: 'Allowed' },
  authenticated: { tone: 'info', icon: 'user', label: 'Authenticated' },
  denied: { tone: 'danger', icon: 'xCircle', label: 'Denied' },
  unauthenticated: { tone: 'warning', icon: 'lock', label: 'Sign-in asked' },
  forbidden: { tone: 'danger', icon: 'x', label: 'Forbidden' },
  rate_limited: { tone: 'warning', icon: 'clock', label: 'Rate limited' },
};

/**
 * A logged decision's badge. A refusal on basic auth is a wrong username or password; any other
 * sign-in asked for came without credentials.
 */
export function LogDecisionBadge({ decision, by }: { decision: AccessDecision; by?: string }) {
  let d = logDecisions[decision] ?? { tone: 'neutral' as Tone, icon: 'info' as IconName, label: decision };
  if (decision === 'unauthenticated') d = { ...d, label: by === 'basic auth' ? 'Wrong password' : 'No credentials' };
  return (
    <Badge tone={d.tone} icon={d.icon}>
      {d.label}
    </Badge>
  );
}
