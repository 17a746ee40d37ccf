import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { LoadingRows } from '@/components/ui/states';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useRegister, useRegistrationAvailable } from '../api/invitations';
import { PublicLayout } from './public-layout';

/** /register: a visitor asks for a link to create an account; the answer never says whether a name is taken. */
export function RegisterPage() {
  const { t } = useTranslation('invitations');
  const available = useRegistrationAvailable();
  const register = useRegister();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  if (available.isPending) {
    return (
      <PublicLayout title={t('register.title')}>
        <LoadingRows />
      </PublicLayout>
    );
  }
  if (!available.data?.available) {
    return (
      <PublicLayout title={t('register.title')} subtitle={t('register.closed')}>
        <p>{t('register.askInvite')}</p>
        <Link to="/login">{t('back')}</Link>
      </PublicLayout>
    );
  }
  if (register.isSuccess) {
    return (
      <PublicLayout title={t('checkMail')} subtitle={t('register.sentSubtitle')}>
        <p>{t('register.sentText')}</p>
        <Link to="/login">{t('back')}</Link>
      </PublicLayout>
    );
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setFieldErrors({});
    if (!username.trim() || !email.trim()) return setError(t('register.missing'));
    register.mutate(
      { username: username.trim(), email: email.trim() },
      {
        onError: (err) => {
          if (isApiError(err) && err.fields.length) {
            setFieldErrors(Object.fromEntries(err.fields.map((f) => [f.field, f.message])));
          } else {
            setError(errorMessage(err));
          }
        },
      },
    );
  };
  return (
    <PublicLayout title={t('register.title')} subtitle={t('register.subtitle')}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        {error ? (
          <Alert tone="danger" title={t('notSent')}>
            {error}
          </Alert>
        ) : null}
        <Field label={t('register.username')} hint={t('register.usernameHint')} error={fieldErrors.username}>
          <input className="input" autoComplete="username" maxLength={64} value={username} onChange={(e) => setUsername(e.target.value)} autoFocus />
        </Field>
        <Field label={t('register.email')} error={fieldErrors.email}>
          <input className="input" type="email" autoComplete="email" maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Button type="submit" variant="primary" className="btn-block" loading={register.isPending}>
          {t('sendLink')}
        </Button>
        <Link to="/login">{t('back')}</Link>
      </form>
    </PublicLayout>
  );
}
