import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('portal');
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

  return (
    <Card>
      <CardHeader
        title={t('appPasswords.title')}
        description={t('appPasswords.description')}
      />
      <div className="card-body stack-sm">
        <form className="row account-add" onSubmit={submit} noValidate aria-label={t('appPasswords.formLabel')}>
          <Field label={t('appPasswords.nameLabel')} error={error ?? undefined}>
            <input className="input" value={name} maxLength={64} placeholder={t('appPasswords.namePlaceholder')} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Button type="submit" variant="primary" icon="plus" loading={create.isPending}>
            {t('appPasswords.create')}
          </Button>
        </form>
      </div>
      {list.isError ? (
        <div className="card-body">
          <ErrorState error={list.error} onRetry={() => list.refetch()} title={t('accountPage.listLoadFailed')} />
        </div>
      ) : list.isPending ? (
        <LoadingRows rows={2} />
      ) : list.data.length === 0 ? (
        <p className="card-body muted small" style={{ paddingTop: 0 }}>
          {t('appPasswords.none')}
        </p>
      ) : (
        <ul className="account-list" aria-label={t('appPasswords.listLabel')}>
          {list.data.map((p) => (
            <li key={p.id} className="account-item">
              <span>
                <strong>{p.name}</strong>
                <span className="muted small account-meta">
                  {t('appPasswords.made', { date: formatDateTime(p.createdAt) })} ·{' '}
                  {p.lastUsedAt ? t('appPasswords.lastUsed', { ago: formatRelative(p.lastUsedAt, now) }) : t('appPasswords.notUsed')}
                </span>
              </span>
              <Button size="sm" variant="ghost" icon="trash" onClick={() => setRemoving(p)} aria-label={t('appPasswords.removeLabel', { name: p.name })}>
                {t('appPasswords.remove')}
              </Button>
            </li>
          ))}
        </ul>
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
        open={!!removing}
        title={t('appPasswords.removeTitle')}
        message={removing ? t('appPasswords.removeMessage', { name: removing.name }) : t('appPasswords.removeMessageUnnamed')}
        confirmLabel={t('appPasswords.remove')}
        danger
        loading={revoke.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && revoke.mutate(removing.id, { onSettled: () => setRemoving(null) })}
      />
    </Card>
  );
}
