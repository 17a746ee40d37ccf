import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { ConfirmDialog } from '@/components/ui/modal';
import { SecretOnceDialog } from '@/components/ui/secret-once-dialog';
import { tokenLifeColumns } from '@/components/ui/token-columns';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { MachineToken, MachineTokenCreated } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { useDeleteMachineToken, useMachineTokens, useRevokeMachineToken } from '../api/machine-tokens';
import { CreateTokenDialog } from './create-token-dialog';

function scopeText(t: MachineToken): string {
  const prefix = t.scope?.pathPrefix;
  const methods = t.scope?.methods ?? [];
  if (!prefix && methods.length === 0) return 'any path, any method';
  return [prefix ? `${prefix}` : 'any path', methods.length ? methods.join(', ') : 'any method'].join(' · ');
}

export function MachineTokensPage() {
  const canWrite = useCanWrite();
  const tokens = useMachineTokens();
  const revoke = useRevokeMachineToken();
  const del = useDeleteMachineToken();
  // The Security tab links here with ?new=<service id> to start a token for that service.
  const [params, setParams] = useSearchParams();
  const preset = params.get('new');
  const [creating, setCreating] = useState(preset !== null);
  const [created, setCreated] = useState<MachineTokenCreated | null>(null);
  const [revoking, setRevoking] = useState<MachineToken | null>(null);
  const [deleting, setDeleting] = useState<MachineToken | null>(null);
  const list = tokens.data ?? [];
  const columns: Column<MachineToken>[] = [
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
    {
      id: 'services',
      header: 'Services',
      cell: (t) => (
        <div className="chip-list">
          {t.services.map((s) => (
            <Link key={s.id} to={`/services/${s.id}/security`} className="tag" style={{ paddingRight: 8 }}>
              {s.name}
            </Link>
          ))}
        </div>
      ),
    },
    { id: 'scope', header: 'Scope', className: 'small mono', cell: scopeText },
    ...tokenLifeColumns<MachineToken>(),
    actionsColumn((t) =>
      canWrite ? (
        <>
          {t.status === 'active' ? (
            <Button size="sm" variant="ghost" icon="x" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
              Revoke
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setDeleting(t)} aria-label={`Delete ${t.name}`} title="Delete" />
        </>
      ) : null,
    ),
  ];
  return (
    <>
      <PageHeader
        title="Machine tokens"
        description="Secrets for programs (sync clients, scripts, monitoring) to reach services that are protected. A service accepts them once its Machine tokens protection is on."
        actions={
          canWrite ? (
            <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
              New token
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
                <EmptyState
                  icon="terminal"
                  title="No machine tokens"
                  action={
                    <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
                      Create a token
                    </Button>
                  }
                >
                  Create a token for a program, then turn on Machine tokens on the service's Security tab.
                </EmptyState>
              )
            }
          />
        )}
      </Card>
      <CreateTokenDialog
        open={creating}
        serviceIds={preset ? [preset] : undefined}
        onClose={() => {
          setCreating(false);
          if (preset !== null) setParams({}, { replace: true });
        }}
        onCreated={(c) => {
          setCreating(false);
          if (preset !== null) setParams({}, { replace: true });
          setCreated(c);
        }}
      />
      <TokenValueDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={!!revoking}
        title={`Revoke ${revoking?.name ?? 'this token'}?`}
        message="Programs using it are refused within a second. The token stays in the list as revoked."
        confirmLabel="Revoke token"
        danger
        loading={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
      <ConfirmDialog
        open={!!deleting}
        title={`Delete ${deleting?.name ?? 'this token'}?`}
        message="Programs using it are refused, and it disappears from this list. This cannot be undone."
        confirmLabel="Delete token"
        danger
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}

/** The token's value, shown once: the API never returns it again. */
function TokenValueDialog({ created, onClose }: { created: MachineTokenCreated | null; onClose: () => void }) {
  return (
    <SecretOnceDialog value={created?.value ?? null} onClose={onClose} title="Token ready" label="Token value">
      {created ? (
        <>
          {created.warnings?.length ? (
            <Alert tone="warning" title="Before it works">
              <ul className="plain-list">
                {created.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </Alert>
          ) : null}
          <div className="stack-sm small">
            <span className="muted">Send it with each request, for example:</span>
            <code className="code-block" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              Authorization: Bearer {created.value}
            </code>
            <span className="muted">
              or as the password of basic auth (any username). Upstreams receive <code>Remote-User: token:{created.token.name}</code>.
            </span>
          </div>
        </>
      ) : null}
    </SecretOnceDialog>
  );
}
