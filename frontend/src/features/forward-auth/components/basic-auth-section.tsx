import { Link } from 'react-router';
import { useFormContext, useWatch } from 'react-hook-form';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import { useCredentialSetOptions } from '../api/security';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

export function BasicAuthSection({ canWrite }: SectionProps) {
  const { register, formState } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'basicAuth.enabled'>({ name: 'basicAuth.enabled' });
  const sets = useCredentialSetOptions();
  const list = sets.data ?? [];
  return (
    <SectionCard title="Basic auth" icon="lock" on={enabled} description="The browser asks for a username and password from a credential set.">
      <Switch {...register('basicAuth.enabled')} label="Require basic auth" />
      <Field
        label="Credential set"
        error={formState.errors.basicAuth?.credentialSetId?.message}
        hint={canWrite && list.length === 0 && !sets.isPending ? <>No sets yet. <Link to="/credential-sets">Create one</Link>.</> : undefined}
      >
        <select className="select" disabled={!enabled} {...register('basicAuth.credentialSetId')}>
          <option value="">Choose a set…</option>
          {list.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.users.length} user{s.users.length === 1 ? '' : 's'})
            </option>
          ))}
        </select>
      </Field>
    </SectionCard>
  );
}
