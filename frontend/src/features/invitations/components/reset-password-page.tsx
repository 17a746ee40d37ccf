import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { LoadingRows } from '@/components/ui/states';
import { errorMessage } from '@/lib/api-client';
import { newPasswordHint, newPasswordSchema } from '@/lib/password-schema';
import { useResetLink, useResetPassword } from '../api/invitations';
import { PublicLayout } from './public-layout';

/** /reset-password/:token: choose a new password; every session ends. */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const link = useResetLink(token);
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (link.isPending) {
    return (
      <PublicLayout title="Choose a new password">
        <LoadingRows />
      </PublicLayout>
    );
  }
  if (link.isError) {
    return (
      <PublicLayout title="This link does not work" subtitle="It was already used or it expired.">
        <Link to="/forgot-password">Ask for a new link</Link>
      </PublicLayout>
    );
  }
  if (reset.isSuccess) {
    return (
      <PublicLayout title="Password changed" subtitle="You were signed out everywhere. Sign in with your new password.">
        <Link className="btn btn-primary btn-block" to="/login">
          Sign in
        </Link>
      </PublicLayout>
    );
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const ok = newPasswordSchema.safeParse(password);
    if (!ok.success) return setError(ok.error.issues[0]?.message ?? 'Choose another password.');
    if (password !== confirm) return setError('The two passwords are not the same.');
    reset.mutate({ token, password }, { onError: (err) => setError(errorMessage(err)) });
  };
  return (
    <PublicLayout title="Choose a new password" subtitle="Choosing a new password signs you out everywhere.">
      <form className="stack" onSubmit={onSubmit} noValidate>
        {error ? <Alert tone="danger" title="Not changed">{error}</Alert> : null}
        <Field label="New password" hint={newPasswordHint}>
          <input className="input" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        </Field>
        <Field label="Type it again">
          <input className="input" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </Field>
        <Button type="submit" variant="primary" className="btn-block" loading={reset.isPending}>
          Set my new password
        </Button>
      </form>
    </PublicLayout>
  );
}
