import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import { TagInput } from '@/components/ui/tag-input';
import { useSsoProvider } from '../api/security';
import { userEntryError } from './user-entry';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

/** Says which claim of the provider each kind of entry is compared with. */
function UserEntriesHint() {
  const { t } = useTranslation('forward-auth');
  const code = { code: <code /> };
  return (
    <ul>
      <li>
        <Trans
          t={t}
          i18nKey="sso.hintSubject"
          components={{ ...code, entry: <code>{`sub:<${t('sso.subjectWord')}>`}</code> }}
        />
      </li>
      <li>
        <Trans t={t} i18nKey="sso.hintEmail" components={code} />
      </li>
      <li>
        <Trans t={t} i18nKey="sso.hintOther" components={code} />
      </li>
    </ul>
  );
}

export function SsoSection({ canWrite }: SectionProps) {
  const { t } = useTranslation('forward-auth');
  const { register, control, formState } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'sso.enabled'>({ name: 'sso.enabled' });
  const provider = useSsoProvider();
  return (
    <SectionCard
      title={t('sso.title')}
      icon="users"
      on={enabled}
      description={t('sso.description')}
    >
      {canWrite && provider.data && !provider.data.enabled ? (
        <Alert tone="info" title={t('sso.noProviderTitle')}>
          <Trans t={t} i18nKey="sso.noProvider" components={{ a: <Link to="/settings" /> }} />
        </Alert>
      ) : null}
      <Switch {...register('sso.enabled')} label={t('sso.require')} />
      <Field label={t('sso.users')} optional error={formState.errors.sso?.users?.message} hint={<UserEntriesHint />}>
        <Controller
          control={control}
          name="sso.users"
          render={({ field }) => <TagInput value={field.value} onChange={field.onChange} placeholder={t('sso.usersPlaceholder')} validate={userEntryError} />}
        />
      </Field>
      <Field label={t('sso.groups')} optional error={formState.errors.sso?.groups?.message}>
        <Controller control={control} name="sso.groups" render={({ field }) => <TagInput value={field.value} onChange={field.onChange} placeholder={t('sso.groupsPlaceholder')} />} />
      </Field>
    </SectionCard>
  );
}
