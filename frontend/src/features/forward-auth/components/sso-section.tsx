import { useTranslation } from 'react-i18next';
import { useFormContext, useWatch } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Switch } from '@/components/ui/switch';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

/**
 * Per-service single sign-on, replaced by the People protection. The upgrade converted the
 * ones that existed; a service only has it now when the older security-configs route made it
 * or an older export was imported. It is shown then, read-only, with the one change left:
 * switching it off.
 */
export function SsoSection({ canWrite }: SectionProps) {
  const { t } = useTranslation('forward-auth');
  const { register, formState } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'sso.enabled'>({ name: 'sso.enabled' });
  const stored = formState.defaultValues?.sso;
  if (!stored?.enabled) return null;
  const users = (stored.users ?? []).filter((u): u is string => !!u);
  const groups = (stored.groups ?? []).filter((g): g is string => !!g);
  return (
    <SectionCard title={t('ssoReplaced.title')} icon="users" on={enabled} description={t('ssoReplaced.description')}>
      <Alert tone="warning" title={t('ssoReplaced.alertTitle')}>
        {t('ssoReplaced.alertText')}
      </Alert>
      <p className="small muted">
        {users.length ? t('ssoReplaced.users', { list: users.join(', ') }) : t('ssoReplaced.anyone')}
        {groups.length ? t('ssoReplaced.groups', { list: groups.join(', ') }) : null}
      </p>
      {canWrite ? <Switch {...register('sso.enabled')} label={t('ssoReplaced.keep')} /> : null}
    </SectionCard>
  );
}
