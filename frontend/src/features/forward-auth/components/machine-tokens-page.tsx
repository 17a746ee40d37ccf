import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
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
import i18n from '@/lib/i18n';
import { useCanWrite } from '@/lib/api/system';
import { useDeleteMachineToken, useMachineTokens, useRevokeMachineToken } from '../api/machine-tokens';
import { CreateTokenDialog } from './create-token-dialog';

function scopeText(tok: MachineToken): string {
  const prefix = tok.scope?.pathPrefix;
  const methods = tok.scope?.methods ?? [];
  if (!prefix && methods.length === 0) return i18n.t('forward-auth:tokensPage.scopeAny');
  return [prefix ? `${prefix}` : i18n.t('forward-auth:tokensPage.anyPath'), methods.length ? methods.join(', ') : i18n.t('forward-auth:tokensPage.anyMethod')].join(' · ');
}

export function MachineTokensPage() {
  const { t } = useTranslation(['forward-auth', 'common']);
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
      header: t('tokensPage.columns.name'),
      sortValue: (tok) => tok.name,
      cell: (tok) => (
        <div className="stack-sm" style={{ gap: 0 }}>
          <strong>{tok.name}</strong>
          <span className="small muted mono">{tok.prefix}…</span>
        </div>
      ),
    },
    {
      id: 'services',
      header: t('tokensPage.columns.services'),
      cell: (tok) => (
        <div className="chip-list">
          {tok.services.map((s) => (
            <Link key={s.id} to={`/services/${s.id}/security`} className="tag" style={{ paddingRight: 8 }}>
              {s.name}
            </Link>
          ))}
        </div>
      ),
    },
    { id: 'scope', header: t('tokensPage.columns.scope'), className: 'small mono', cell: scopeText },
    ...tokenLifeColumns<MachineToken>(),
    actionsColumn((tok) =>
      canWrite ? (
        <>
          {tok.status === 'active' ? (
            <Button size="sm" variant="ghost" icon="x" onClick={() => setRevoking(tok)} aria-label={t('tokensPage.revokeLabel', { name: tok.name })}>
              {t('tokensPage.revoke')}
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setDeleting(tok)} aria-label={t('tokensPage.deleteLabel', { name: tok.name })} title={t('common:actions.delete')} />
        </>
      ) : null,
    ),
  ];
  return (
    <>
      <PageHeader
        title={t('tokensPage.title')}
        description={t('tokensPage.description')}
        actions={
          canWrite ? (
            <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
              {t('tokensPage.new')}
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
                <EmptyState
                  icon="terminal"
                  title={t('tokensPage.emptyTitle')}
                  action={
                    <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
                      {t('tokensPage.createFirst')}
                    </Button>
                  }
                >
                  {t('tokensPage.emptyBody')}
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
        title={revoking ? t('tokensPage.revokeTitle', { name: revoking.name }) : t('tokensPage.revokeTitleFallback')}
        message={t('tokensPage.revokeMessage')}
        confirmLabel={t('tokensPage.revokeConfirm')}
        danger
        loading={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
      <ConfirmDialog
        open={!!deleting}
        title={deleting ? t('tokensPage.deleteTitle', { name: deleting.name }) : t('tokensPage.deleteTitleFallback')}
        message={t('tokensPage.deleteMessage')}
        confirmLabel={t('tokensPage.deleteConfirm')}
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
  const { t } = useTranslation('forward-auth');
  return (
    <SecretOnceDialog value={created?.value ?? null} onClose={onClose} title={t('tokensPage.ready')} label={t('tokensPage.value')}>
      {created ? (
        <>
          {created.warnings?.length ? (
            <Alert tone="warning" title={t('tokensPage.beforeItWorks')}>
              <ul className="plain-list">
                {created.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </Alert>
          ) : null}
          <div className="stack-sm small">
            <span className="muted">{t('tokensPage.sendIt')}</span>
            <code className="code-block" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {`Authorization: Bearer ${created.value}`}
            </code>
            <span className="muted">
              <Trans t={t} i18nKey="tokensPage.orBasic" values={{ name: created.token.name }} components={{ code: <code /> }} />
            </span>
          </div>
        </>
      ) : null}
    </SecretOnceDialog>
  );
}
