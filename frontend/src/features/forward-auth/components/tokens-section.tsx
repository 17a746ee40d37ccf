import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormContext, useWatch } from 'react-hook-form';
import { ButtonLink } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

export function TokensSection({ serviceId, canWrite }: SectionProps) {
  const { t } = useTranslation('forward-auth');
  const { register, formState } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'tokens.enabled'>({ name: 'tokens.enabled' });
  return (
    <SectionCard
      title={t('tokens.title')}
      icon="terminal"
      on={enabled}
      description={
        <Trans t={t} i18nKey="tokens.description" components={{ a: <Link to="/machine-tokens" /> }} />
      }
      footer={
        canWrite ? (
          <ButtonLink to={`/machine-tokens?new=${encodeURIComponent(serviceId)}`} variant="ghost" icon="plus">
            {t('tokens.newForService')}
          </ButtonLink>
        ) : undefined
      }
    >
      <Switch {...register('tokens.enabled')} label={t('tokens.accept')} />
      <Field
        label={t('tokens.header')}
        optional
        error={formState.errors.tokens?.header?.message}
        hint={t('tokens.headerHint')}
      >
        <input className="input mono" placeholder={t('tokens.headerPlaceholder')} disabled={!enabled} autoCapitalize="off" spellCheck={false} {...register('tokens.header')} />
      </Field>
    </SectionCard>
  );
}
