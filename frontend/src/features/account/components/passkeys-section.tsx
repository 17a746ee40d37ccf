import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { ConfirmDialog } from '@/components/ui/modal';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { errorMessage, isApiError } from '@/lib/api-client';
import type { Passkey } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { passkeyErrorMessage, passkeysSupported } from '@/lib/webauthn';
import { useAddPasskey, useDeletePasskey, usePasskeys } from '../api/two-factor';
import { RenamePasskey } from './rename-passkey';

/** Passkeys: a second factor after the password, and a way to sign in without one. */
export function PasskeysSection({ available, problem }: { available: boolean; problem?: string }) {
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const remove = useDeletePasskey();
  const [name, setName] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Passkey | null>(null);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const supported = passkeysSupported();

  const onAdd = async (e: React.FormEvent) => {
    e.preventDefault();
    setAddError(null);
    try {
      await add.mutateAsync(name.trim());
      setName('');
    } catch (err) {
      setAddError(isApiError(err) ? errorMessage(err) : passkeyErrorMessage(err));
    }
  };

  const list = passkeys.data ?? [];
  const columns: Column<Passkey>[] = [
    { id: 'name', header: 'Name', cell: (p) => <strong>{p.name}</strong> },
    { id: 'added', header: 'Added', className: 'small nowrap', cell: (p) => formatDateTime(p.createdAt) },
    { id: 'lastUsed', header: 'Last used', className: 'small nowrap', cell: (p) => (p.lastUsedAt ? formatRelative(p.lastUsedAt) : 'Never') },
    actionsColumn((p) => (
      <>
        <Button size="sm" variant="ghost" icon="edit" onClick={() => setRenaming(p)} aria-label={`Rename passkey ${p.name}`}>
          Rename
        </Button>
        <Button size="sm" variant="ghost" icon="trash" onClick={() => setDeleting(p)} aria-label={`Remove passkey ${p.name}`}>
          Remove
        </Button>
      </>
    )),
  ];
  return (
    <section className="stack" aria-labelledby="passkeys-heading">
      <h3 id="passkeys-heading">Passkeys</h3>
      <p className="muted small">
        A passkey lives in your device or security key. It can stand in for the code after your password, and sign you in
        without a password at all.
      </p>
      {passkeys.isError ? (
        <ErrorState error={passkeys.error} onRetry={() => passkeys.refetch()} />
      ) : passkeys.isPending ? (
        <LoadingRows rows={1} />
      ) : (
        <DataTable data={list} rowKey={(p) => p.id} columns={columns} label="Passkeys" empty={null} />
      )}
      {!available ? (
        <Alert tone="info" title="Passkeys are unavailable">
          {problem ?? 'The panel is not configured for passkeys.'}
        </Alert>
      ) : !supported ? (
        <Alert tone="info" title="This browser cannot use passkeys">
          Open the panel over HTTPS (or on localhost) in a browser that supports WebAuthn.
        </Alert>
      ) : (
        <form className="input-row" onSubmit={onAdd} aria-label="Add a passkey">
          <Field label="Passkey name" hint="To tell your passkeys apart, e.g. Work laptop." optional>
            <input className="input" maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Button type="submit" icon="key" loading={add.isPending}>
            Add a passkey
          </Button>
        </form>
      )}
      {addError ? (
        <Alert tone="danger" title="Passkey not added">
          {addError}
        </Alert>
      ) : null}
      {renaming ? <RenamePasskey passkey={renaming} onClose={() => setRenaming(null)} /> : null}
      <ConfirmDialog
        open={!!deleting}
        title="Remove this passkey?"
        message={`${deleting?.name ?? 'The passkey'} will no longer sign you in.`}
        confirmLabel="Remove"
        danger
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </section>
  );
}
