import { Link } from 'react-router';
import { useFormContext, useWatch } from 'react-hook-form';
import { ButtonLink } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

export function TokensSection({ serviceId, canWrite }: SectionProps) {
  const { register, formState } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'tokens.enabled'>({ name: 'tokens.enabled' });
  return (
    <SectionCard
      title="Machine tokens"
      icon="terminal"
      on={enabled}
      description={
        <>
          Programs send a <Link to="/machine-tokens">machine token</Link> made for this service instead of signing in.
        </>
      }
      footer={
        canWrite ? (
          <ButtonLink to={`/machine-tokens?new=${encodeURIComponent(serviceId)}`} variant="ghost" icon="plus">
            New token for this service
          </ButtonLink>
        ) : undefined
      }
    >
      <Switch {...register('tokens.enabled')} label="Accept machine tokens" />
      <Field
        label="Token header"
        optional
        error={formState.errors.tokens?.header?.message}
        hint="A request header your clients put the token in, such as X-Api-Key. Authorization: Bearer and the basic-auth password are always accepted; a query parameter never is."
      >
        <input className="input mono" placeholder="X-Api-Key" disabled={!enabled} autoCapitalize="off" spellCheck={false} {...register('tokens.header')} />
      </Field>
    </SectionCard>
  );
}
