import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { LoadingRows } from '@/components/ui/states';
import { errorMessage, isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { newPasswordSchema } from '@/lib/password-schema';
import { passkeysSupported } from '@/lib/webauthn';
import { useAcceptInvitation, useInvitationPreview } from '../api/invitations';
import { PublicLayout } from './public-layout';

/**
 * /invite/:token: the invited person chooses a password, a passkey, or both.
 * /register/:token is the same page for a visitor who asked for an account.
 */
export function InvitePage({ registration = false }: { registration?: boolean }) {
  const { t } = useTranslation('invitations');
  const { token = '' } = useParams();
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [withPasskey, setWithPasskey] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (preview.isPending) {
    return (
      <PublicLayout title={registration ? t('invite.createTitle') : t('invite.title')}>
        <LoadingRows />
      </PublicLayout>
    );
  }
  if (preview.isError) {
    return (
      registration ? (
        <PublicLayout title={t('linkBroken')} subtitle={t('invite.linkBrokenSubtitle')}>
          <Link to="/register">{t('newLink')}</Link>
        </PublicLayout>
      ) : (
        <PublicLayout title={t('invite.broken')} subtitle={t('invite.brokenSubtitle')}>
          <p>{t('invite.askInviter')}</p>
        </PublicLayout>
      )
    );
  }
  if (accept.isSuccess) {
    return (
      <PublicLayout title={t('invite.done')} subtitle={t('invite.doneSubtitle', { name: accept.data.username })}>
        <Link className="btn btn-primary btn-block" to="/login">
          {t('signIn')}
        </Link>
      </PublicLayout>
    );
  }
  const p = preview.data;
  const canPasskey = p.passkeysAvailable && passkeysSupported();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!password && !withPasskey) return setError(t('invite.choose'));
    if (password) {
      const ok = newPasswordSchema.safeParse(password);
      if (!ok.success) return setError(ok.error.issues[0]?.message ?? t('password.another'));
      if (password !== confirm) return setError(t('password.mismatch'));
    }
    accept.mutate(
      { token, password, withPasskey, passkeyName: 'Passkey' },
      { onError: (err) => setError(isApiError(err) && err.status === 404 ? registration ? t('invite.linkGone') : t('invite.gone') : errorMessage(err)) },
    );
  };

  return (
    <PublicLayout title={t('invite.welcome', { name: p.displayName || p.username })} subtitle={t('invite.howSignIn', { name: p.username })}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        {error ? (
          <Alert tone="danger" title={t('invite.notYet')}>
            {error}
          </Alert>
        ) : null}
        <Field label={t('invite.password')} hint={canPasskey ? t('password.hintPasskey') : t('password.hint')}>
          <input className="input" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <Field label={t('invite.again')}>
          <input className="input" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </Field>
        {canPasskey ? (
          <label className="checkbox">
            <input type="checkbox" checked={withPasskey} onChange={(e) => setWithPasskey(e.target.checked)} /> {t('invite.passkey')}
          </label>
        ) : null}
        <Button type="submit" variant="primary" className="btn-block" loading={accept.isPending}>
          {t('invite.submit')}
        </Button>
        <p className="muted">{t('invite.until', { when: formatDateTime(p.expiresAt) })}</p>
      </form>
    </PublicLayout>
  );
}
