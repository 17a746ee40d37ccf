import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button, ButtonLink } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useSystem } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { asSentence } from '@/lib/format';
import type { SecondFactorMethod } from '@/lib/api-types';
import { passkeyErrorMessage, passkeysSupported } from '@/lib/webauthn';
import { useForgetSession, useLogin, usePasskeyLogin, useRegistrationOffered, useResetOffered } from '../api/auth';
import { AuthLayout } from './auth-layout';
import { loginSchema } from './schemas';
import { SecondFactorStep } from './second-factor-step';

type Values = z.infer<typeof loginSchema>;

/**
 * What the SSO sign-in's redirect back (/login?error=<code>) means. Only these fixed codes
 * travel in the URL, so nothing a link carries is shown as text.
 */
const ssoErrors: Record<string, { title: string; text: string }> = {
  sso_unavailable: { title: 'SSO sign-in unavailable', text: 'Single sign-on is not set up, or the identity provider could not be reached. Try again in a moment.' },
  sso_expired: { title: 'Sign-in expired', text: 'The sign-in took too long or was started in another browser. Try again.' },
  sso_refused: { title: 'Sign-in refused', text: 'The identity provider refused the sign-in.' },
  sso_failed: { title: 'Sign-in failed', text: 'The answer of the identity provider could not be verified. Try again.' },
  sso_not_allowed: { title: 'Not allowed', text: 'You signed in at the identity provider, but no sign-in rule of this panel lets you in. Ask an administrator.' },
  sso_disabled: { title: 'Administrator disabled', text: 'Your administrator account on this panel is disabled.' },
  sso_rate_limited: { title: 'Sign-in temporarily locked', text: 'Too many refused sign-ins from your address. Wait a few minutes and try again.' },
};

function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const system = useSystem();
  useForgetSession();
  const login = useLogin();
  const passkey = usePasskeyLogin();
  const resetOffered = useResetOffered();
  const registration = useRegistrationOffered();
  const [methods, setMethods] = useState<SecondFactorMethod[] | null>(null);
  const [formError, setFormError] = useState<{ tone: 'danger' | 'warning'; title: string; text: string } | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<Values>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: '', password: '' },
  });

  if (system.data?.setupRequired) return <Navigate to="/setup" replace />;
  const sso = system.data?.adminSso === true;
  const passwords = system.data?.localPasswords !== false;
  const code = params.get('error');
  const ssoError = code ? (ssoErrors[code] ?? { title: 'Sign-in failed', text: 'The sign-in could not be completed. Try again.' }) : null;

  const done = () => navigate(safeNext(params.get('next')), { replace: true });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const res = await login.mutateAsync(values);
      if ('secondFactor' in res) setMethods(res.secondFactor.methods);
      else done();
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

  const passwordless = async () => {
    setFormError(null);
    try {
      await passkey.mutateAsync();
      done();
    } catch (e) {
      const text = isApiError(e) ? errorMessage(e) : passkeyErrorMessage(e);
      setFormError({ tone: 'danger', title: 'Passkey sign-in failed', text: asSentence(text) });
    }
  };

  if (methods) {
    return (
      <AuthLayout title="Two-factor sign-in" subtitle="Confirm it is you with your second factor.">
        <SecondFactorStep methods={methods} onDone={done} onRestart={() => setMethods(null)} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Sign in" subtitle="Manage the services behind your Traefik proxy.">
      <div className="stack">
        {ssoError && !formError ? (
          <Alert tone="danger" title={ssoError.title}>
            {ssoError.text}
          </Alert>
        ) : null}
        {formError ? (
          <Alert tone={formError.tone} title={formError.title}>
            {formError.text}
          </Alert>
        ) : null}
        {sso ? (
          <>
            <ButtonLink to="/api/admin/sso/start" reloadDocument variant={passwords ? 'secondary' : 'primary'} icon="key" className="btn-block">
              Sign in with SSO
            </ButtonLink>
            <p className="muted small" style={{ margin: 0 }}>
              Your identity provider asks for any second factor.
            </p>
          </>
        ) : null}
        {passwords ? (
          <form className="stack" onSubmit={onSubmit} noValidate aria-label="Sign in with a password">
            <Field label="Username" error={formState.errors.username?.message}>
              <input className="input" autoComplete="username" autoFocus={!sso} {...register('username')} />
            </Field>
            <Field label="Password" error={formState.errors.password?.message}>
              <input className="input" type="password" autoComplete="current-password" {...register('password')} />
            </Field>
            <Button type="submit" variant="primary" className="btn-block" loading={login.isPending}>
              Sign in
            </Button>
            {resetOffered.data?.available ? (
              <Link className="small" to="/forgot-password">
                Forgot your password?
              </Link>
            ) : null}
            {registration.data?.available ? (
              <Link className="small" to="/register">
                Create an account
              </Link>
            ) : null}
          </form>
        ) : (
          <p className="muted small" style={{ margin: 0 }}>
            Signing in with a password is turned off. Someone with access to the server can turn it back on with{' '}
            <code>gatehouse admin local-passwords on</code>.
          </p>
        )}
        {/* Worded "Use a passkey", not "Sign in with...": the password's button keeps a unique name. */}
        {passkeysSupported() && system.data?.passkeys ? (
          <Button icon="key" className="btn-block" loading={passkey.isPending} onClick={passwordless}>
            Use a passkey
          </Button>
        ) : null}
      </div>
    </AuthLayout>
  );
}
