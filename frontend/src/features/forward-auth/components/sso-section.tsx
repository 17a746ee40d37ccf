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
  return (
    <ul>
      <li>
        <code>sub:&lt;subject&gt;</code>: the provider&apos;s subject (<code>sub</code> claim), which never changes. The safest choice.
      </li>
      <li>
        An e-mail address: the <code>email</code> claim, only when the provider marks it verified (<code>email_verified</code>).
      </li>
      <li>
        Any other word: the <code>preferred_username</code> claim (some providers let people change it) or the subject.
      </li>
    </ul>
  );
}

export function SsoSection({ canWrite }: SectionProps) {
  const { register, control, formState } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'sso.enabled'>({ name: 'sso.enabled' });
  const provider = useSsoProvider();
  return (
    <SectionCard
      title="Single sign-on"
      icon="users"
      on={enabled}
      description="Visitors sign in with your identity provider. Allow specific people or groups; empty lists allow every signed-in user."
    >
      {canWrite && provider.data && !provider.data.enabled ? (
        <Alert tone="info" title="No identity provider yet">
          Configure OIDC under <Link to="/settings">Settings</Link> before turning this on.
        </Alert>
      ) : null}
      <Switch {...register('sso.enabled')} label="Require single sign-on" />
      <Field label="Allowed users" optional error={formState.errors.sso?.users?.message} hint={<UserEntriesHint />}>
        <Controller
          control={control}
          name="sso.users"
          render={({ field }) => <TagInput value={field.value} onChange={field.onChange} placeholder="sub:248289761001 or alice@example.com" validate={userEntryError} />}
        />
      </Field>
      <Field label="Allowed groups" optional error={formState.errors.sso?.groups?.message}>
        <Controller control={control} name="sso.groups" render={({ field }) => <TagInput value={field.value} onChange={field.onChange} placeholder="admins" />} />
      </Field>
    </SectionCard>
  );
}
