import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { ConfirmDialog } from '@/components/ui/modal';
import { SecretOnceDialog } from '@/components/ui/secret-once-dialog';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { errorMessage, isApiError } from '@/lib/api-client';
import type { AppPassword, AppPasswordCreated } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import { useCreateAppPassword, useMyAppPasswords, useRevokeAppPassword } from '../api/app-passwords';

/** App passwords: for apps that can only send a username and a password (calendars, file sync, mail). */
export function AppPasswordsCard({ username }: { username?: string }) {
  const list = useMyAppPasswords();
  const create = useCreateAppPassword();
  const revoke = useRevokeAppPassword();
  const now = useNow(60_000);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<AppPasswordCreated | null>(null);
  const [revoking, setRevoking] = useState<AppPassword | null>(null);

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

  const columns: Column<AppPassword>[] = [
    { id: 'name', header: 'Name', cell: (p) => <strong>{p.name}</strong> },
    { id: 'created', header: 'Created', className: 'small nowrap', cell: (p) => formatDateTime(p.createdAt) },
    {
      id: 'lastUsed',
      header: 'Last used',
      className: 'small nowrap',
      cell: (p) => (p.lastUsedAt ? formatRelative(p.lastUsedAt, now) : 'Never'),
    },
    actionsColumn((p) => (
      <Button size="sm" variant="ghost" icon="trash" onClick={() => setRevoking(p)} aria-label={`Revoke ${p.name}`}>
        Revoke
      </Button>
    )),
  ];

  return (
    <Card>
      <CardHeader
        title="App passwords"
        description="For apps that can only ask for a username and a password, such as calendar, contacts, file sync or mail apps. Each app gets its own password, which you can revoke without changing your own."
      />
      <div className="card-body">
        <form className="row" onSubmit={submit} noValidate>
          <Field label="Name of the new app password" error={error ?? undefined}>
            <input className="input" value={name} maxLength={64} placeholder="Phone calendar" onChange={(e) => setName(e.target.value)} />
          </Field>
          <Button type="submit" variant="primary" icon="plus" loading={create.isPending}>
            Create app password
          </Button>
        </form>
      </div>
      {list.isError ? (
        <div className="card-body">
          <ErrorState error={list.error} onRetry={() => list.refetch()} />
        </div>
      ) : list.isPending ? (
        <LoadingRows rows={2} />
      ) : (
        <DataTable
          data={list.data}
          rowKey={(p) => p.id}
          columns={columns}
          empty={
            <EmptyState icon="key" title="No app passwords">
              Create one for each app that cannot use the sign-in page.
            </EmptyState>
          }
        />
      )}
      <SecretOnceDialog value={created?.secret ?? null} onClose={() => setCreated(null)} title={`App password "${created?.name ?? ''}" ready`} label="App password">
        <p className="small">
          In the app, sign in with your username{username ? <> <strong>{username}</strong></> : null} and this password.
        </p>
      </SecretOnceDialog>
      <ConfirmDialog
        open={!!revoking}
        title="Revoke this app password?"
        message={`${revoking?.name ?? 'The app'} will stop working from its next request, until you give it a new password.`}
        confirmLabel="Revoke"
        danger
        loading={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
    </Card>
  );
}
