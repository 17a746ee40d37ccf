import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { LoadingRows } from '@/components/ui/states';
import { errorMessage, isApiError } from '@/lib/api-client';
import { newPasswordHint, newPasswordSchema } from '@/lib/password-schema';
import { passkeysSupported } from '@/lib/webauthn';
import { useAcceptInvitation, useInvitationPreview } from '../api/invitations';
import { PublicLayout } from './public-layout';

/**
 * /invite/:token: the invited person chooses a password, a passkey, or both.
 * /register/:token is the same page for a visitor who asked for an account.
 */
export function InvitePage({ registration = false }: { registration?: boolean }) {
  const { token = '' } = useParams();
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [withPasskey, setWithPasskey] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (preview.isPending) {
    return (
      <PublicLayout title={registration ? 'Create your account' : 'Your invitation'}>
        <LoadingRows />
      </PublicLayout>
    );
  }
  if (preview.isError) {
    return (
      registration ? (
        <PublicLayout title="This link does not work" subtitle="It was already used, or it expired.">
          <Link to="/register">Ask for a new link</Link>
        </PublicLayout>
      ) : (
        <PublicLayout title="This invitation does not work" subtitle="It was already used, it expired, or it was withdrawn.">
          <p>Ask the person who invited you for a new invitation.</p>
        </PublicLayout>
      )
    );
  }
  if (accept.isSuccess) {
    return (
      <PublicLayout title="You are all set" subtitle={`Your account ${accept.data.username} is ready.`}>
        <Link className="btn btn-primary btn-block" to="/login">
          Sign in
        </Link>
      </PublicLayout>
    );
  }
  const p = preview.data;
  const canPasskey = p.passkeysAvailable && passkeysSupported();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!password && !withPasskey) return setError('Choose a password or set up a passkey.');
    if (password) {
      const ok = newPasswordSchema.safeParse(password);
      if (!ok.success) return setError(ok.error.issues[0]?.message ?? 'Choose another password.');
      if (password !== confirm) return setError('The two passwords are not the same.');
    }
    accept.mutate(
      { token, password, withPasskey, passkeyName: 'Passkey' },
      { onError: (err) => setError(isApiError(err) && err.status === 404 ? registration ? 'This link no longer works. Ask for a new one.' : 'This invitation no longer works. Ask for a new one.' : errorMessage(err)) },
    );
  };

  return (
    <PublicLayout title={`Welcome, ${p.displayName || p.username}`} subtitle={`Choose how you will sign in as ${p.username}.`}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        {error ? <Alert tone="danger" title="Not yet">{error}</Alert> : null}
        <Field label="Password" hint={canPasskey ? `${newPasswordHint} Optional if you set up a passkey.` : newPasswordHint}>
          <input className="input" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <Field label="Type the password again">
          <input className="input" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </Field>
        {canPasskey ? (
          <label className="checkbox">
            <input type="checkbox" checked={withPasskey} onChange={(e) => setWithPasskey(e.target.checked)} /> Also set up a passkey on this device (your
            phone or computer unlocks it)
          </label>
        ) : null}
        <Button type="submit" variant="primary" className="btn-block" loading={accept.isPending}>
          Create my account
        </Button>
        <p className="muted">This link works once, until {new Date(p.expiresAt).toLocaleString()}.</p>
      </form>
    </PublicLayout>
  );
}
