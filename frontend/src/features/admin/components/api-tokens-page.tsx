import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import { ConfirmDialog } from '@/components/ui/modal';
import { SecretOnceDialog } from '@/components/ui/secret-once-dialog';
import { tokenLifeColumns } from '@/components/ui/token-columns';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { useCanWrite } from '@/lib/api/system';
import type { AdminToken, AdminTokenCreated } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/admins';
import { roleChoices } from './admin-dialogs';

export function ApiTokensPage() {
  const { t } = useTranslation(['admin', 'common']);
  const tokens = useApiTokens();
  const revoke = useRevokeApiToken();
  const canWrite = useCanWrite();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<AdminTokenCreated | null>(null);
  const [revoking, setRevoking] = useState<AdminToken | null>(null);
  const list = tokens.data ?? [];
  const columns: Column<AdminToken>[] = [
    {
      id: 'name',
      header: t('common:words.name'),
      sortValue: (tok) => tok.name,
      cell: (tok) => (
        <div className="stack-sm" style={{ gap: 0 }}>
          <strong>{tok.name}</strong>
          <span className="small muted mono">{tok.prefix}…</span>
        </div>
      ),
    },
    { id: 'role', header: t('list.role'), cell: (tok) => t(`roles.${tok.role}.label`) },
    {
      id: 'createdBy',
      header: t('list.createdBy'),
      sortValue: (tok) => Date.parse(tok.createdAt),
      cell: (tok) => (
        <div className="stack-sm" style={{ gap: 0 }}>
          <span>{tok.createdBy}</span>
          <span className="small muted" title={formatDateTime(tok.createdAt)}>
            {formatRelative(tok.createdAt)}
          </span>
        </div>
      ),
    },
    ...tokenLifeColumns<AdminToken>(),
    actionsColumn(
      (tok) =>
        tok.status === 'active' ? (
          <Button size="sm" variant="ghost" icon="x" onClick={() => setRevoking(tok)} aria-label={t('list.revokeNamed', { name: tok.name })}>
            {t('list.revoke')}
          </Button>
        ) : null,
      { hidden: !canWrite },
    ),
  ];
  return (
    <>
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          canWrite ? (
            <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
              {t('page.new')}
            </Button>
          ) : null
        }
      />
      {tokens.isError ? <ErrorState error={tokens.error} onRetry={() => tokens.refetch()} /> : null}
      <Card>
        {tokens.isPending ? (
          <LoadingRows />
        ) : (
          <DataTable
            data={list}
            rowKey={(tok) => tok.id}
            columns={columns}
            empty={
              tokens.isError ? undefined : (
                <EmptyState icon="code" title={t('page.empty')}>
                  {t('page.emptyText')}
                </EmptyState>
              )
            }
          />
        )}
      </Card>
      <CreateApiTokenDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(c) => {
          setCreating(false);
          setCreated(c);
        }}
      />
      <TokenValueDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={!!revoking}
        title={t('page.revokeTitle', { name: revoking?.name ?? t('page.thisToken') })}
        message={t('page.revokeMessage')}
        confirmLabel={t('page.revokeConfirm')}
        danger
        loading={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
    </>
  );
}

const expiryChoices = ['never', '30', '90', '365'] as const;

const schema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: () => i18n.t('admin:schema.name') })
    .max(100, { error: () => i18n.t('admin:schema.atMost', { max: 100 }) }),
  role: z.enum(['admin', 'viewer']),
  expiry: z.enum(['never', '30', '90', '365']),
});
type Values = z.infer<typeof schema>;
const defaults: Values = { name: '', role: 'viewer', expiry: '90' };

export function CreateApiTokenDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (c: AdminTokenCreated) => void }) {
  const { t } = useTranslation('admin');
  const create = useCreateApiToken();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: defaults });
  const errors = form.formState.errors;
  const { register } = form;
  return (
    <FormModal
      open={open}
      onClose={onClose}
      form={form}
      id="api-token-form"
      title={t('page.new')}
      description={t('form.description')}
      submitLabel={t('form.submit')}
      resetValues={defaults}
      serverErrors={{ map: (p) => (p === 'expiresAt' ? 'expiry' : p) }}
      onSubmit={async (v) => {
        const created = await create.mutateAsync({
          name: v.name,
          role: v.role,
          expiresAt: v.expiry === 'never' ? null : new Date(Date.now() + Number(v.expiry) * 86400_000).toISOString(),
        });
        onCreated(created);
      }}
    >
      <Field label={t('form.name')} error={errors.name?.message}>
        <input className="input" placeholder={t('form.namePlaceholder')} data-autofocus autoCapitalize="off" {...register(`name`)} />
      </Field>
      <div className="grid-2">
        <Field label={t('list.role')} error={errors.role?.message}>
          <select className="select" {...register(`role`)}>
            {roleChoices.map((r) => (
              <option key={r} value={r}>
                {t('form.roleOption', { label: t(`roles.${r}.label`), hint: t(`roles.${r}.hint`) })}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('form.expires')} error={errors.expiry?.message}>
          <select className="select" {...register(`expiry`)}>
            {expiryChoices.map((c) => (
              <option key={c} value={c}>
                {t(`form.expiry.${c}`)}
              </option>
            ))}
          </select>
        </Field>
      </div>
    </FormModal>
  );
}

/** The token's value, shown once: the API never returns it again. */
function TokenValueDialog({ created, onClose }: { created: AdminTokenCreated | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  return (
    <SecretOnceDialog value={created?.value ?? null} onClose={onClose} title={t('ready.title')} label={t('ready.label')}>
      {created ? (
        <div className="stack-sm small">
          <span className="muted">{t('ready.example')}</span>
          <code className="code-block" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {`curl -H "Authorization: Bearer ${created.value}" ${window.location.origin}/api/services`}
          </code>
        </div>
      ) : null}
    </SecretOnceDialog>
  );
}
