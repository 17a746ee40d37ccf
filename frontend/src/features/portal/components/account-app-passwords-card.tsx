import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { ConfirmDialog } from '@/components/ui/modal';
import { SecretOnceDialog } from '@/components/ui/secret-once-dialog';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { errorMessage, isApiError } from '@/lib/api-client';
import type { AppPassword, AppPasswordCreated } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import { useCreateAppPassword, useMyAppPasswords, useRevokeAppPassword } from '../api/account';

/** Passwords for apps that cannot use the sign-in page (calendars, file sync, mail). */
export function AppPasswordsCard({ username }: { username?: string }) {
  const list = useMyAppPasswords();
  const create = useCreateAppPassword();
  const revoke = useRevokeAppPassword();
  const now = useNow(60_000);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<AppPasswordCreated | null>(null);
  const [removing, setRemoving] = useState<AppPassword | null>(null);

  function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!name.trim()) {
      setError('Give it a name, such as "Phone calendar".');
      return;
    }
    create.mutate(name.trim(), {
      onSuccess: (out) => {
        setCreated(out);
        setName('');
      },
      onError: (err) => {
        const field = isApiError(err) ? err.fields.find((f) => f.field === 'name') : undefined;
        if (field && isApiError(err)) err.fieldsShown = true;
        setError(field ? field.message : errorMessage(err));
      },
    });
  }

  return (
    <Card>
      <CardHeader
        title="App passwords"
        description="Some apps, such as calendar, contacts, file sync or mail apps, cannot use this sign-in page and ask for a username and a password instead. Give each of them its own password here. You can remove it at any time without changing your own password."
      />
      <div className="card-body stack-sm">
        <form className="row account-add" onSubmit={submit} noValidate aria-label="Create an app password">
          <Field label="Name of the app" error={error ?? undefined}>
            <input className="input" value={name} maxLength={64} placeholder="Phone calendar" onChange={(e) => setName(e.target.value)} />
          </Field>
          <Button type="submit" variant="primary" icon="plus" loading={create.isPending}>
            Create app password
          </Button>
        </form>
      </div>
      {list.isError ? (
        <div className="card-body">
          <ErrorState error={list.error} onRetry={() => list.refetch()} title="This list could not be loaded" />
        </div>
      ) : list.isPending ? (
        <LoadingRows rows={2} />
      ) : list.data.length === 0 ? (
        <p className="card-body muted small" style={{ paddingTop: 0 }}>
          You have no app passwords.
        </p>
      ) : (
        <ul className="account-list" aria-label="Your app passwords">
          {list.data.map((p) => (
            <li key={p.id} className="account-item">
              <span>
                <strong>{p.name}</strong>
                <span className="muted small account-meta">
                  Made {formatDateTime(p.createdAt)} · {p.lastUsedAt ? `last used ${formatRelative(p.lastUsedAt, now)}` : 'not used yet'}
                </span>
              </span>
              <Button size="sm" variant="ghost" icon="trash" onClick={() => setRemoving(p)} aria-label={`Remove app password ${p.name}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <SecretOnceDialog value={created?.secret ?? null} onClose={() => setCreated(null)} title={`Password for "${created?.name ?? ''}"`} label="App password">
        <p className="small">
          Type it into the app together with your username{username ? <> <strong>{username}</strong></> : null}. You will
          not see it again.
        </p>
      </SecretOnceDialog>
      <ConfirmDialog
        open={!!removing}
        title="Remove this app password?"
        message={`${removing?.name ?? 'The app'} will stop working until you give it a new password.`}
        confirmLabel="Remove"
        danger
        loading={revoke.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && revoke.mutate(removing.id, { onSettled: () => setRemoving(null) })}
      />
    </Card>
  );
}
