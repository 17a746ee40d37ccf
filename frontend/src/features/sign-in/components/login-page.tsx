import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button, ButtonLink } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useSystem } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import i18n from '@/lib/i18n';
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
const ssoErrors: Record<string, 'unavailable' | 'expired' | 'refused' | 'failed' | 'notAllowed' | 'disabled' | 'rateLimited'> = {
  sso_unavailable: 'unavailable',
  sso_expired: 'expired',
  sso_refused: 'refused',
  sso_failed: 'failed',
  sso_not_allowed: 'notAllowed',
  sso_disabled: 'disabled',
  sso_rate_limited: 'rateLimited',
};

/** The title and text for an SSO error code; an unknown code gets a generic failure. */
function ssoProblem(code: string): { title: string; text: string } {
  const k = ssoErrors[code] ?? 'unknown';
  return { title: i18n.t(`sign-in:sso.${k}Title`), text: i18n.t(`sign-in:sso.${k}Text`) };
}

function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function LoginPage() {
  const { t } = useTranslation('sign-in');
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
  const ssoError = code ? ssoProblem(code) : null;

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
        setFormError({ tone: 'warning', title: t('login.locked'), text: asSentence(e.message) });
      } else if (isApiError(e) && e.status === 401) {
        setFormError({ tone: 'danger', title: t('login.failed'), text: t('login.wrongCredentials') });
      } else {
        setFormError({ tone: 'danger', title: t('login.failed'), text: errorMessage(e) });
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
      setFormError({ tone: 'danger', title: t('login.passkeyFailed'), text: asSentence(text) });
    }
  };

  if (methods) {
    return (
      <AuthLayout title={t('login.twoFactorTitle')} subtitle={t('login.twoFactorSubtitle')}>
        <SecondFactorStep methods={methods} onDone={done} onRestart={() => setMethods(null)} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
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
              {t('login.withSso')}
            </ButtonLink>
            <p className="muted small" style={{ margin: 0 }}>
              {t('login.ssoHint')}
            </p>
          </>
        ) : null}
        {passwords ? (
          <form className="stack" onSubmit={onSubmit} noValidate aria-label={t('login.passwordFormLabel')}>
            <Field label={t('login.username')} error={formState.errors.username?.message}>
              <input className="input" autoComplete="username" autoFocus={!sso} {...register('username')} />
            </Field>
            <Field label={t('login.password')} error={formState.errors.password?.message}>
              <input className="input" type="password" autoComplete="current-password" {...register('password')} />
            </Field>
            <Button type="submit" variant="primary" className="btn-block" loading={login.isPending}>
              {t('login.submit')}
            </Button>
            {resetOffered.data?.available ? (
              <Link className="small" to="/forgot-password">
                {t('login.forgot')}
              </Link>
            ) : null}
            {registration.data?.available ? (
              <Link className="small" to="/register">
                {t('login.register')}
              </Link>
            ) : null}
          </form>
        ) : (
          <p className="muted small" style={{ margin: 0 }}>
            <Trans t={t} i18nKey="login.passwordsOff" components={{ code: <code /> }} />
          </p>
        )}
        {/* Worded "Use a passkey", not "Sign in with...": the password's button keeps a unique name. */}
        {passkeysSupported() && system.data?.passkeys ? (
          <Button icon="key" className="btn-block" loading={passkey.isPending} onClick={passwordless}>
            {t('login.usePasskey')}
          </Button>
        ) : null}
      </div>
    </AuthLayout>
  );
}
