import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useSystem } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { newPasswordHint } from '@/lib/password-schema';
import { useForgetSession, useSetup } from '../api/auth';
import { AuthLayout } from './auth-layout';
import { setupSchema } from './schemas';

type Values = z.infer<typeof setupSchema>;

export function SetupPage() {
  const { t } = useTranslation('sign-in');
  const navigate = useNavigate();
  const system = useSystem();
  useForgetSession();
  const setup = useSetup();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<Values>({
    resolver: zodResolver(setupSchema),
    defaultValues: { username: 'admin', password: '', confirm: '' },
  });

  if (system.data && !system.data.setupRequired && !setup.isSuccess) return <Navigate to="/login" replace />;

  const onSubmit = handleSubmit(async ({ username, password }) => {
    setFormError(null);
    try {
      await setup.mutateAsync({ username, password });
      navigate('/', { replace: true });
    } catch (e) {
      const rest = applyServerErrors(e, setError);
      if (isApiError(e) && e.status === 403) setFormError(t('setup.alreadyExists'));
      else if (!isApiError(e) || e.fields.length === 0 || rest.length) setFormError(rest.join(' ') || errorMessage(e));
    }
  });

  return (
    <AuthLayout title={t('setup.title')} subtitle={t('setup.subtitle')}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        {formError ? (
          <Alert tone="danger" title={t('setup.failed')}>
            {formError}
          </Alert>
        ) : null}
        <Field label={t('setup.username')} error={formState.errors.username?.message} hint={t('setup.usernameHint')}>
          <input className="input" autoComplete="username" {...register('username')} />
        </Field>
        <Field label={t('setup.password')} error={formState.errors.password?.message} hint={newPasswordHint()}>
          <input className="input" type="password" autoComplete="new-password" autoFocus {...register('password')} />
        </Field>
        <Field label={t('setup.confirm')} error={formState.errors.confirm?.message}>
          <input className="input" type="password" autoComplete="new-password" {...register('confirm')} />
        </Field>
        <Button type="submit" variant="primary" className="btn-block" loading={setup.isPending}>
          {t('setup.submit')}
        </Button>
      </form>
    </AuthLayout>
  );
}
