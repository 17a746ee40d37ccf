import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormContext, useWatch } from 'react-hook-form';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import { useCredentialSetOptions } from '../api/security';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

export function BasicAuthSection({ canWrite }: SectionProps) {
  const { t } = useTranslation('forward-auth');
  const { register, formState } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'basicAuth.enabled'>({ name: 'basicAuth.enabled' });
  const sets = useCredentialSetOptions();
  const list = sets.data ?? [];
  return (
    <SectionCard title={t('basicAuth.title')} icon="lock" on={enabled} description={t('basicAuth.description')}>
      <Switch {...register('basicAuth.enabled')} label={t('basicAuth.require')} />
      <Field
        label={t('basicAuth.set')}
        error={formState.errors.basicAuth?.credentialSetId?.message}
        hint={canWrite && list.length === 0 && !sets.isPending ? <Trans t={t} i18nKey="basicAuth.noSets" components={{ a: <Link to="/credential-sets" /> }} /> : undefined}
      >
        <select className="select" disabled={!enabled} {...register('basicAuth.credentialSetId')}>
          <option value="">{t('basicAuth.choose')}</option>
          {list.map((s) => (
            <option key={s.id} value={s.id}>
              {t('basicAuth.option', { name: s.name, count: s.users.length })}
            </option>
          ))}
        </select>
      </Field>
    </SectionCard>
  );
}
