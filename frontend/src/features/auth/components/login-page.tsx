import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useSystem } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { asSentence } from '@/lib/format';
import { useForgetSession, useLogin } from '../api/auth';
import { AuthLayout } from './auth-layout';
import { loginSchema } from './schemas';

type Values = z.infer<typeof loginSchema>;

function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const system = useSystem();
  useForgetSession();
  const login = useLogin();
  const [formError, setFormError] = useState<{ tone: 'danger' | 'warning'; title: string; text: string } | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<Values>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: '', password: '' },
  });

  if (system.data?.setupRequired) return <Navigate to="/setup" replace />;

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await login.mutateAsync(values);
      navigate(safeNext(params.get('next')), { replace: true });
    } catch (e) {
      applyServerErrors(e, setError);
      if (isApiError(e) && e.code === 'rate_limited') {
        // The server's own words: it knows which limit was hit and says when to retry.
        setFormError({ tone: 'warning', title: 'Sign-in temporarily locked', text: asSentence(e.message) });
      } else if (isApiError(e) && e.status === 401) {
        setFormError({ tone: 'danger', title: 'Sign-in failed', text: 'The username or password is incorrect.' });
      } else {
        setFormError({ tone: 'danger', title: 'Sign-in failed', text: errorMessage(e) });
      }
    }
  });

  return (
    <AuthLayout title="Sign in" subtitle="Manage the services behind your Traefik proxy.">
      <form className="stack" onSubmit={onSubmit} noValidate>
        {formError ? (
          <Alert tone={formError.tone} title={formError.title}>
            {formError.text}
          </Alert>
        ) : null}
        <Field label="Username" error={formState.errors.username?.message}>
          <input className="input" autoComplete="username" autoFocus {...register('username')} />
        </Field>
        <Field label="Password" error={formState.errors.password?.message}>
          <input className="input" type="password" autoComplete="current-password" {...register('password')} />
        </Field>
        <Button type="submit" variant="primary" className="btn-block" loading={login.isPending}>
          Sign in
        </Button>
      </form>
    </AuthLayout>
  );
}
