import { useFormContext, useWatch } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Switch } from '@/components/ui/switch';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

/**
 * Per-service single sign-on, replaced by the People protection. The panel converts it at
 * start-up; a service only still has it when an older export was imported since. It is shown
 * then, read-only, with the one change left: switching it off.
 */
export function SsoSection({ canWrite }: SectionProps) {
  const { register, formState } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'sso.enabled'>({ name: 'sso.enabled' });
  const stored = formState.defaultValues?.sso;
  if (!stored?.enabled) return null;
  const users = (stored.users ?? []).filter((u): u is string => !!u);
  const groups = (stored.groups ?? []).filter((g): g is string => !!g);
  return (
    <SectionCard title="Single sign-on (replaced)" icon="users" on={enabled} description="Per-service single sign-on from an older release.">
      <Alert tone="warning" title="Replaced by People">
        The People protection now does this: people sign in once on the portal, with “Sign in with …” for your identity provider. The panel turns this
        protection into a People protection admitting the same people at its next start; you can also switch it off and set up People yourself.
      </Alert>
      <p className="small muted">
        Allowed users: {users.length ? users.join(', ') : 'anyone the provider signs in'}
        {groups.length ? `; groups: ${groups.join(', ')}` : ''}
      </p>
      {canWrite ? <Switch {...register('sso.enabled')} label="Keep per-service single sign-on until then" /> : null}
    </SectionCard>
  );
}
