import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { LoadingRows } from '@/components/ui/states';
import { errorMessage } from '@/lib/api-client';
import { useRequestReset, useResetAvailable } from '../api/invitations';
import { PublicLayout } from './public-layout';

/** /forgot-password: asks for a reset link; the answer never says whether the account exists. */
export function ForgotPasswordPage() {
  const { t } = useTranslation('invitations');
  const available = useResetAvailable();
  const request = useRequestReset();
  const [login, setLogin] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (available.isPending) {
    return (
      <PublicLayout title={t('forgot.title')}>
        <LoadingRows />
      </PublicLayout>
    );
  }
  if (!available.data?.available) {
    return (
      <PublicLayout title={t('forgot.title')} subtitle={t('forgot.unavailable')}>
        <p>{t('forgot.askAdmin')}</p>
        <Link to="/login">{t('back')}</Link>
      </PublicLayout>
    );
  }
  if (request.isSuccess) {
    return (
      <PublicLayout title={t('checkMail')} subtitle={t('forgot.sentSubtitle')}>
        <p>{t('forgot.sentText')}</p>
        <Link to="/login">{t('back')}</Link>
      </PublicLayout>
    );
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!login.trim()) return setError(t('forgot.missing'));
    request.mutate(login.trim(), { onError: (err) => setError(errorMessage(err)) });
  };
  return (
    <PublicLayout title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        {error ? (
          <Alert tone="danger" title={t('notSent')}>
            {error}
          </Alert>
        ) : null}
        <Field label={t('forgot.login')}>
          <input className="input" autoComplete="username" maxLength={254} value={login} onChange={(e) => setLogin(e.target.value)} autoFocus />
        </Field>
        <Button type="submit" variant="primary" className="btn-block" loading={request.isPending}>
          {t('sendLink')}
        </Button>
        <Link to="/login">{t('back')}</Link>
      </form>
    </PublicLayout>
  );
}
