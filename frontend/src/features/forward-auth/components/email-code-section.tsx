import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { EmailCodeFields } from './email-code-protection';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

export function EmailCodeSection(_: SectionProps) {
  const { t } = useTranslation('forward-auth');
  const { control, formState } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'emailCode.enabled'>({ name: 'emailCode.enabled' });
  const errors = formState.errors.emailCode;
  return (
    <SectionCard
      title={t('emailCode.title')}
      icon="mail"
      on={enabled}
      description={t('emailCode.description')}
    >
      <Controller
        control={control}
        name="emailCode"
        render={({ field }) => (
          <EmailCodeFields
            value={field.value}
            onChange={field.onChange}
            errors={{ allowedEmails: errors?.allowedEmails?.message, sessionSeconds: errors?.sessionSeconds?.message }}
          />
        )}
      />
    </SectionCard>
  );
}
