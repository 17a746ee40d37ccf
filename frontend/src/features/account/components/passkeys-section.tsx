import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('account');
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
    { id: 'name', header: t('passkeys.name'), cell: (p) => <strong>{p.name}</strong> },
    { id: 'added', header: t('passkeys.added'), className: 'small nowrap', cell: (p) => formatDateTime(p.createdAt) },
    { id: 'lastUsed', header: t('passkeys.lastUsed'), className: 'small nowrap', cell: (p) => (p.lastUsedAt ? formatRelative(p.lastUsedAt) : t('passkeys.never')) },
    actionsColumn((p) => (
      <>
        <Button size="sm" variant="ghost" icon="edit" onClick={() => setRenaming(p)} aria-label={t('passkeys.renameLabel', { name: p.name })}>
          {t('passkeys.rename')}
        </Button>
        <Button size="sm" variant="ghost" icon="trash" onClick={() => setDeleting(p)} aria-label={t('passkeys.removeLabel', { name: p.name })}>
          {t('passkeys.remove')}
        </Button>
      </>
    )),
  ];
  return (
    <section className="stack" aria-labelledby="passkeys-heading">
      <h3 id="passkeys-heading">{t('passkeys.heading')}</h3>
      <p className="muted small">
        {t('passkeys.intro')}
      </p>
      {passkeys.isError ? (
        <ErrorState error={passkeys.error} onRetry={() => passkeys.refetch()} />
      ) : passkeys.isPending ? (
        <LoadingRows rows={1} />
      ) : (
        <DataTable data={list} rowKey={(p) => p.id} columns={columns} label={t('passkeys.tableLabel')} empty={null} />
      )}
      {!available ? (
        <Alert tone="info" title={t('passkeys.unavailableTitle')}>
          {problem ?? t('passkeys.notConfigured')}
        </Alert>
      ) : !supported ? (
        <Alert tone="info" title={t('passkeys.unsupportedTitle')}>
          {t('passkeys.unsupportedText')}
        </Alert>
      ) : (
        <form className="input-row" onSubmit={onAdd} aria-label={t('passkeys.addLabel')}>
          <Field label={t('passkeys.nameLabel')} hint={t('passkeys.nameHint')} optional>
            <input className="input" maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Button type="submit" icon="key" loading={add.isPending}>
            {t('passkeys.add')}
          </Button>
        </form>
      )}
      {addError ? (
        <Alert tone="danger" title={t('passkeys.notAdded')}>
          {addError}
        </Alert>
      ) : null}
      {renaming ? <RenamePasskey passkey={renaming} onClose={() => setRenaming(null)} /> : null}
      <ConfirmDialog
        open={!!deleting}
        title={t('passkeys.removeTitle')}
        message={deleting ? t('passkeys.removeMessage', { name: deleting.name }) : t('passkeys.removeMessageUnnamed')}
        confirmLabel={t('passkeys.remove')}
        danger
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </section>
  );
}
