import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
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
      header: 'Name',
      sortValue: (t) => t.name,
      cell: (t) => (
        <div className="stack-sm" style={{ gap: 0 }}>
          <strong>{t.name}</strong>
          <span className="small muted mono">{t.prefix}…</span>
        </div>
      ),
    },
    { id: 'role', header: 'Role', cell: (t) => (t.role === 'admin' ? 'Admin' : 'Viewer') },
    {
      id: 'createdBy',
      header: 'Created by',
      sortValue: (t) => Date.parse(t.createdAt),
      cell: (t) => (
        <div className="stack-sm" style={{ gap: 0 }}>
          <span>{t.createdBy}</span>
          <span className="small muted" title={formatDateTime(t.createdAt)}>
            {formatRelative(t.createdAt)}
          </span>
        </div>
      ),
    },
    ...tokenLifeColumns<AdminToken>(),
    actionsColumn(
      (t) =>
        t.status === 'active' ? (
          <Button size="sm" variant="ghost" icon="x" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
            Revoke
          </Button>
        ) : null,
      { hidden: !canWrite },
    ),
  ];
  return (
    <>
      <PageHeader
        title="API tokens"
        description="For scripts that use this panel's API. A token acts with its role, never more than its creator's, and stops working when its creator is disabled."
        actions={
          canWrite ? (
            <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
              New API token
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
            rowKey={(t) => t.id}
            columns={columns}
            empty={
              tokens.isError ? undefined : (
                <EmptyState icon="code" title="No API tokens">
                  Create one for a script; send it as Authorization: Bearer.
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
        title={`Revoke ${revoking?.name ?? 'this token'}?`}
        message="Scripts using it are refused at once. The token stays in the list as revoked."
        confirmLabel="Revoke token"
        danger
        loading={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
    </>
  );
}

const expiryChoices = [
  { value: 'never', label: 'Never' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
] as const;

const schema = z.object({
  name: z.string().trim().min(1, 'Give the token a name').max(100, 'At most 100 characters'),
  role: z.enum(['admin', 'viewer']),
  expiry: z.enum(['never', '30', '90', '365']),
});
type Values = z.infer<typeof schema>;
const defaults: Values = { name: '', role: 'viewer', expiry: '90' };

export function CreateApiTokenDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (c: AdminTokenCreated) => void }) {
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
      title="New API token"
      description="Scripts send it as Authorization: Bearer. It cannot create tokens or administrators, nor use your account's own pages."
      submitLabel="Create token"
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
      <Field label="Name" error={errors.name?.message}>
        <input className="input" placeholder="backup script" data-autofocus autoCapitalize="off" {...register('name')} />
      </Field>
      <div className="grid-2">
        <Field label="Role" error={errors.role?.message}>
          <select className="select" {...register('role')}>
            {roleChoices.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label} ({r.hint})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Expires" error={errors.expiry?.message}>
          <select className="select" {...register('expiry')}>
            {expiryChoices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
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
  return (
    <SecretOnceDialog value={created?.value ?? null} onClose={onClose} title="API token ready" label="API token value">
      {created ? (
        <div className="stack-sm small">
          <span className="muted">For example:</span>
          <code className="code-block" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            curl -H &quot;Authorization: Bearer {created.value}&quot; {window.location.origin}/api/services
          </code>
        </div>
      ) : null}
    </SecretOnceDialog>
  );
}
