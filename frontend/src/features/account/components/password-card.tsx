import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { errorMessage, isApiError } from '@/lib/api-client';
import { applyServerErrors } from '@/lib/form-errors';
import { asSentence } from '@/lib/format';
import i18n from '@/lib/i18n';
import { newPasswordHint, newPasswordSchema } from '@/lib/password-schema';
import { useChangePassword } from '../api/account';

const schema = z
  .object({
    currentPassword: z.string().min(1, { error: () => i18n.t('account:password.currentRequired') }),
    newPassword: newPasswordSchema,
    confirm: z.string(),
  })
  .refine((v) => v.newPassword === v.confirm, { path: ['confirm'], error: () => i18n.t('account:password.mismatch') });
type Values = z.infer<typeof schema>;

const empty: Values = { currentPassword: '', newPassword: '', confirm: '' };

export function PasswordCard({ username }: { username?: string }) {
  const { t } = useTranslation('account');
  const change = useChangePassword();
  const [formError, setFormError] = useState<{ tone: 'danger' | 'warning'; title: string; text: string } | null>(null);
  const { register, handleSubmit, setError, formState, reset } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: empty,
  });

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    setFormError(null);
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      reset(empty);
    } catch (e) {
      const rest = applyServerErrors(e, setError, { known: (p) => p === 'currentPassword' || p === 'newPassword' });
      if (isApiError(e) && e.code === 'rate_limited') {
        // A wrong current password counts as a failed sign-in; the server says when to retry.
        setFormError({ tone: 'warning', title: t('password.tooManyAttempts'), text: asSentence(e.message) });
      } else if (!isApiError(e) || e.fields.length === 0 || rest.length) {
        setFormError({ tone: 'danger', title: t('password.notChanged'), text: rest.join(' ') || errorMessage(e) });
      }
    }
  });

  return (
    <Card>
      <CardHeader title={t('password.title')} description={t('password.description')} />
      <form onSubmit={onSubmit} noValidate aria-label={t('password.formLabel')}>
        <div className="card-body stack">
          {formError ? (
            <Alert tone={formError.tone} title={formError.title}>
              {formError.text}
            </Alert>
          ) : null}
          {/* Lets password managers file the new password under the right account. */}
          <input type="text" name="username" autoComplete="username" value={username ?? ''} readOnly hidden />
          <Field label={t('password.current')} error={formState.errors.currentPassword?.message}>
            <input className="input" type="password" autoComplete="current-password" {...register('currentPassword')} />
          </Field>
          <div className="grid-2">
            <Field label={t('password.new')} error={formState.errors.newPassword?.message} hint={newPasswordHint()}>
              <input className="input" type="password" autoComplete="new-password" {...register('newPassword')} />
            </Field>
            <Field label={t('password.confirm')} error={formState.errors.confirm?.message}>
              <input className="input" type="password" autoComplete="new-password" {...register('confirm')} />
            </Field>
          </div>
        </div>
        <div className="card-footer">
          <Button type="submit" variant="primary" icon="lock" loading={change.isPending}>
            {t('password.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
