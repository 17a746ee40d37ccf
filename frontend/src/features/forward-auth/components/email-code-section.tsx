import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { EmailCodeFields } from './email-code-protection';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

export function EmailCodeSection(_: SectionProps) {
  const { control, formState } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'emailCode.enabled'>({ name: 'emailCode.enabled' });
  const errors = formState.errors.emailCode;
  return (
    <SectionCard
      title="E-mail code"
      icon="mail"
      on={enabled}
      description="People without an account type their e-mail address and get a six-digit code. Codes work once, for 10 minutes; guessing is cut off after a few tries."
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
