import { useState, type FormEvent } from 'react';
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
  const available = useResetAvailable();
  const request = useRequestReset();
  const [login, setLogin] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (available.isPending) {
    return (
      <PublicLayout title="Forgot your password?">
        <LoadingRows />
      </PublicLayout>
    );
  }
  if (!available.data?.available) {
    return (
      <PublicLayout title="Forgot your password?" subtitle="Resetting a password by e-mail is not set up here.">
        <p>Ask an administrator to set a new password for you.</p>
        <Link to="/login">Back to sign in</Link>
      </PublicLayout>
    );
  }
  if (request.isSuccess) {
    return (
      <PublicLayout title="Check your e-mail" subtitle="If an account matches, a link to choose a new password is on its way.">
        <p>The link works once, for 30 minutes. Nothing arrived? Look in your spam folder, or ask an administrator.</p>
        <Link to="/login">Back to sign in</Link>
      </PublicLayout>
    );
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!login.trim()) return setError('Type your username or e-mail address.');
    request.mutate(login.trim(), { onError: (err) => setError(errorMessage(err)) });
  };
  return (
    <PublicLayout title="Forgot your password?" subtitle="We will e-mail you a link to choose a new one.">
      <form className="stack" onSubmit={onSubmit} noValidate>
        {error ? <Alert tone="danger" title="Not sent">{error}</Alert> : null}
        <Field label="Username or e-mail address">
          <input className="input" autoComplete="username" maxLength={254} value={login} onChange={(e) => setLogin(e.target.value)} autoFocus />
        </Field>
        <Button type="submit" variant="primary" className="btn-block" loading={request.isPending}>
          Send me a link
        </Button>
        <Link to="/login">Back to sign in</Link>
      </form>
    </PublicLayout>
  );
}
