import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { LoadingRows } from '@/components/ui/states';
import { errorMessage } from '@/lib/api-client';
import { newPasswordSchema } from '@/lib/password-schema';
import { useResetLink, useResetPassword } from '../api/invitations';
import { PublicLayout } from './public-layout';

/** /reset-password/:token: choose a new password; every session ends. */
export function ResetPasswordPage() {
  const { t } = useTranslation('invitations');
  const { token = '' } = useParams();
  const link = useResetLink(token);
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (link.isPending) {
    return (
      <PublicLayout title={t('reset.title')}>
        <LoadingRows />
      </PublicLayout>
    );
  }
  if (link.isError) {
    return (
      <PublicLayout title={t('linkBroken')} subtitle={t('reset.brokenSubtitle')}>
        <Link to="/forgot-password">{t('newLink')}</Link>
      </PublicLayout>
    );
  }
  if (reset.isSuccess) {
    return (
      <PublicLayout title={t('reset.done')} subtitle={t('reset.doneSubtitle')}>
        <Link className="btn btn-primary btn-block" to="/login">
          {t('signIn')}
        </Link>
      </PublicLayout>
    );
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const ok = newPasswordSchema.safeParse(password);
    if (!ok.success) return setError(ok.error.issues[0]?.message ?? t('password.another'));
    if (password !== confirm) return setError(t('password.mismatch'));
    reset.mutate({ token, password }, { onError: (err) => setError(errorMessage(err)) });
  };
  return (
    <PublicLayout title={t('reset.title')} subtitle={t('reset.subtitle')}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        {error ? (
          <Alert tone="danger" title={t('reset.notChanged')}>
            {error}
          </Alert>
        ) : null}
        <Field label={t('reset.new')} hint={t('password.hint')}>
          <input className="input" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        </Field>
        <Field label={t('reset.again')}>
          <input className="input" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </Field>
        <Button type="submit" variant="primary" className="btn-block" loading={reset.isPending}>
          {t('reset.submit')}
        </Button>
      </form>
    </PublicLayout>
  );
}
