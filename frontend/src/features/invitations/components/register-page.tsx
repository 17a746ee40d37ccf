import { useState, type FormEvent } from 'react';
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
  const available = useRegistrationAvailable();
  const register = useRegister();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  if (available.isPending) {
    return (
      <PublicLayout title="Create an account">
        <LoadingRows />
      </PublicLayout>
    );
  }
  if (!available.data?.available) {
    return (
      <PublicLayout title="Create an account" subtitle="Creating your own account is not possible here.">
        <p>Ask an administrator to invite you.</p>
        <Link to="/login">Back to sign in</Link>
      </PublicLayout>
    );
  }
  if (register.isSuccess) {
    return (
      <PublicLayout title="Check your e-mail" subtitle="If this account can be created, a link to finish is on its way.">
        <p>The link works once, for 24 hours. Nothing arrived? Look in your spam folder, try another username, or ask an administrator.</p>
        <Link to="/login">Back to sign in</Link>
      </PublicLayout>
    );
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setFieldErrors({});
    if (!username.trim() || !email.trim()) return setError('Type a username and your e-mail address.');
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
    <PublicLayout title="Create an account" subtitle="We will e-mail you a link to choose a password.">
      <form className="stack" onSubmit={onSubmit} noValidate>
        {error ? <Alert tone="danger" title="Not sent">{error}</Alert> : null}
        <Field label="Username" hint="Letters, digits and . _ @ -" error={fieldErrors.username}>
          <input className="input" autoComplete="username" maxLength={64} value={username} onChange={(e) => setUsername(e.target.value)} autoFocus />
        </Field>
        <Field label="E-mail address" error={fieldErrors.email}>
          <input className="input" type="email" autoComplete="email" maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Button type="submit" variant="primary" className="btn-block" loading={register.isPending}>
          Send me a link
        </Button>
        <Link to="/login">Back to sign in</Link>
      </form>
    </PublicLayout>
  );
}
