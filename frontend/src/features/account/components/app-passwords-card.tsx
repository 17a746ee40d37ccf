import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('account');
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
      setError(t('appPasswords.nameRequired'));
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
    { id: 'name', header: t('appPasswords.name'), cell: (p) => <strong>{p.name}</strong> },
    { id: 'created', header: t('appPasswords.created'), className: 'small nowrap', cell: (p) => formatDateTime(p.createdAt) },
    {
      id: 'lastUsed',
      header: t('appPasswords.lastUsed'),
      className: 'small nowrap',
      cell: (p) => (p.lastUsedAt ? formatRelative(p.lastUsedAt, now) : t('appPasswords.never')),
    },
    actionsColumn((p) => (
      <Button size="sm" variant="ghost" icon="trash" onClick={() => setRevoking(p)} aria-label={t('appPasswords.revokeLabel', { name: p.name })}>
        {t('appPasswords.revoke')}
      </Button>
    )),
  ];

  return (
    <Card>
      <CardHeader
        title={t('appPasswords.title')}
        description={t('appPasswords.description')}
      />
      <div className="card-body">
        <form className="row" onSubmit={submit} noValidate>
          <Field label={t('appPasswords.newName')} error={error ?? undefined}>
            <input className="input" value={name} maxLength={64} placeholder={t('appPasswords.namePlaceholder')} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Button type="submit" variant="primary" icon="plus" loading={create.isPending}>
            {t('appPasswords.create')}
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
            <EmptyState icon="key" title={t('appPasswords.emptyTitle')}>
              {t('appPasswords.emptyText')}
            </EmptyState>
          }
        />
      )}
      <SecretOnceDialog value={created?.secret ?? null} onClose={() => setCreated(null)} title={t('appPasswords.readyTitle', { name: created?.name ?? '' })} label={t('appPasswords.secretLabel')}>
        <p className="small">
          {username ? (
            <Trans t={t} i18nKey="appPasswords.useWithUsername" values={{ username }} components={{ strong: <strong /> }} />
          ) : (
            t('appPasswords.useWithoutUsername')
          )}
        </p>
      </SecretOnceDialog>
      <ConfirmDialog
        open={!!revoking}
        title={t('appPasswords.revokeTitle')}
        message={revoking ? t('appPasswords.revokeMessage', { name: revoking.name }) : t('appPasswords.revokeMessageUnnamed')}
        confirmLabel={t('appPasswords.revoke')}
        danger
        loading={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
    </Card>
  );
}
