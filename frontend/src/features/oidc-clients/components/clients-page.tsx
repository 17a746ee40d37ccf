import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, PageHeader } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { ConfirmDialog } from '@/components/ui/modal';
import { SecretOnceDialog } from '@/components/ui/secret-once-dialog';
import { signInAgeText } from '@/components/ui/sign-in-age-options';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { OidcClient, OidcClientWithSecret, OidcProvider } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { useDeleteOidcClient, useOidcClients, useRotateOidcSecret } from '../api/clients';
import { ClientDialog } from './client-dialog';

/** The OpenID Connect clients: the apps that sign people in with the panel. */
export function ClientsPage() {
  const { t } = useTranslation(['oidc-clients', 'common']);
  const canWrite = useCanWrite();
  const clients = useOidcClients();
  const del = useDeleteOidcClient();
  const rotate = useRotateOidcSecret();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<OidcClient | null>(null);
  const [deleting, setDeleting] = useState<OidcClient | null>(null);
  const [rotating, setRotating] = useState<OidcClient | null>(null);
  const [secret, setSecret] = useState<OidcClientWithSecret | null>(null);
  const list = clients.data?.items ?? [];
  const provider = clients.data?.provider;
  const columns: Column<OidcClient>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      sortValue: (c) => c.name,
      cell: (c) => (
        <div className="stack-sm" style={{ gap: 0 }}>
          <strong>{c.name}</strong>
          <span className="small muted mono">{c.id}</span>
        </div>
      ),
    },
    { id: 'service', header: t('columns.service'), sortValue: (c) => c.service?.name ?? '', cell: (c) => c.service?.name ?? '—' },
    {
      id: 'type',
      header: t('columns.type'),
      cell: (c) => (
        <div className="chip-list">
          <Badge tone={c.public ? 'info' : 'neutral'}>{c.public ? t('type.public') : t('type.confidential')}</Badge>
          {!c.public && !c.secretSet ? <Badge tone="warning">{t('type.noSecret')}</Badge> : null}
          {c.secondFactor ? (
            <Badge tone="primary" icon="shield" title={t('type.secondFactorTitle')}>
              {t('type.secondFactor')}
            </Badge>
          ) : null}
          {c.maxAgeSeconds > 0 ? <Badge icon="clock">{t('type.maxAge', { age: signInAgeText(c.maxAgeSeconds) })}</Badge> : null}
          {c.disabled ? <Badge tone="danger">{t('type.disabled')}</Badge> : null}
        </div>
      ),
    },
    {
      id: 'groups',
      header: t('columns.groups'),
      cell: (c) => (c.allowedGroups.length ? c.allowedGroups.map((g) => g.name || g.id).join(', ') : t('everyone')),
    },
    actionsColumn((c, ctx) => (
      <>
        <Button
          size="sm"
          variant="ghost"
          icon={ctx.expanded ? 'chevronUp' : 'chevronDown'}
          aria-expanded={ctx.expanded}
          aria-controls={ctx.detailsId}
          onClick={ctx.toggleExpanded}
          aria-label={t('detailsLabel', { name: c.name })}
        >
          {t('details.toggle')}
        </Button>
        {canWrite ? (
          <>
            <Button size="sm" variant="ghost" icon="edit" onClick={() => setEditing(c)} aria-label={t('editLabel', { name: c.name })}>
              {t('common:actions.edit')}
            </Button>
            {c.public ? null : (
              <Button size="sm" variant="ghost" icon="key" onClick={() => setRotating(c)} aria-label={t('rotateLabel', { name: c.name })}>
                {t('rotate')}
              </Button>
            )}
            <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setDeleting(c)} aria-label={t('deleteLabel', { name: c.name })} title={t('common:actions.delete')} />
          </>
        ) : null}
      </>
    )),
  ];
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canWrite ? (
            <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
              {t('new')}
            </Button>
          ) : null
        }
      />
      {clients.isError ? <ErrorState error={clients.error} onRetry={() => clients.refetch()} /> : null}
      <div className="stack">
        {provider ? <ProviderCard provider={provider} /> : null}
        <Card>
          {clients.isPending ? (
            <LoadingRows />
          ) : (
            <DataTable
              data={list}
              rowKey={(c) => c.id}
              columns={columns}
              caption={t('title')}
              details={(c) => <ClientDetails client={c} provider={provider} />}
              empty={
                clients.isError ? undefined : (
                  <EmptyState
                    icon="key"
                    title={t('emptyTitle')}
                    action={
                      canWrite ? (
                        <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
                          {t('createFirst')}
                        </Button>
                      ) : null
                    }
                  >
                    {t('emptyBody')}
                  </EmptyState>
                )
              }
            />
          )}
        </Card>
      </div>
      <ClientDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(c) => {
          setCreating(false);
          if (c.secret) setSecret(c);
        }}
      />
      {editing ? <ClientDialog key={editing.id} open client={editing} onClose={() => setEditing(null)} onCreated={() => setEditing(null)} /> : null}
      <SecretDialog created={secret} provider={provider} onClose={() => setSecret(null)} />
      <ConfirmDialog
        open={!!rotating}
        title={rotating ? t('rotateTitle', { name: rotating.name }) : t('rotate')}
        message={t('rotateMessage')}
        confirmLabel={t('rotateConfirm')}
        danger
        loading={rotate.isPending}
        onCancel={() => setRotating(null)}
        onConfirm={() =>
          rotating &&
          rotate.mutate(rotating.id, {
            onSuccess: (c) => setSecret(c),
            onSettled: () => setRotating(null),
          })
        }
      />
      <ConfirmDialog
        open={!!deleting}
        title={deleting ? t('deleteTitle', { name: deleting.name }) : t('common:actions.delete')}
        message={t('deleteMessage')}
        confirmLabel={t('deleteConfirm')}
        danger
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}

/** A value to copy into an app's settings. */
function CopyRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="stack-sm" style={{ gap: 2 }}>
      <span className="small muted">{label}</span>
      <div className="link-box">
        <input className="input mono" aria-label={label} readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={value} />
      </div>
    </div>
  );
}

/** Where apps find the provider: the discovery URL and, for apps without discovery, each endpoint. */
function ProviderCard({ provider }: { provider: OidcProvider }) {
  const { t } = useTranslation('oidc-clients');
  if (!provider.issuer) {
    return (
      <Alert tone="warning" title={t('provider.noPortalTitle')}>
        <Trans t={t} i18nKey="provider.noPortal" components={{ a: <Link to="/settings" /> }} />
      </Alert>
    );
  }
  return (
    <Card>
      <CardHeader title={t('provider.title')} description={t('provider.description')} />
      <div className="card-body stack">
        <CopyRow label={t('provider.discovery')} value={provider.discoveryUrl} />
        <CopyRow label={t('provider.issuer')} value={provider.issuer} />
        <details>
          <summary>{t('provider.endpoints')}</summary>
          <div className="stack">
            <CopyRow label={t('provider.authorization')} value={provider.authorizationEndpoint} />
            <CopyRow label={t('provider.token')} value={provider.tokenEndpoint} />
            <CopyRow label={t('provider.userinfo')} value={provider.userinfoEndpoint} />
            <CopyRow label={t('provider.jwks')} value={provider.jwksUri} />
            <CopyRow label={t('provider.endSession')} value={provider.endSessionEndpoint} />
            <CopyRow label={t('provider.device')} value={provider.deviceAuthorizationEndpoint} />
          </div>
        </details>
      </div>
    </Card>
  );
}

function ClientDetails({ client, provider }: { client: OidcClient; provider?: OidcProvider }) {
  const { t } = useTranslation('oidc-clients');
  return (
    <div className="stack">
      <CopyRow label={t('details.clientId')} value={client.id} />
      {provider?.discoveryUrl ? <CopyRow label={t('provider.discovery')} value={provider.discoveryUrl} /> : null}
      <div className="stack-sm">
        <span className="small muted">{t('details.redirectUris')}</span>
        <ul className="plain-list mono small">
          {client.redirectUris.map((u) => (
            <li key={u}>{u}</li>
          ))}
        </ul>
      </div>
      <p className="small">
        <span className="muted">{t('details.scopes')}</span> <span className="mono">{client.scopes.join(' ')}</span>
      </p>
    </div>
  );
}

/** The client secret, shown once: the API never returns it again. */
function SecretDialog({ created, provider, onClose }: { created: OidcClientWithSecret | null; provider?: OidcProvider; onClose: () => void }) {
  const { t } = useTranslation('oidc-clients');
  return (
    <SecretOnceDialog value={created?.secret || null} onClose={onClose} title={t('secret.title', { name: created?.client.name ?? '' })} label={t('secret.label')}>
      {created ? (
        <>
          <Alert tone="warning">{t('secret.warning')}</Alert>
          <CopyRow label={t('details.clientId')} value={created.client.id} />
          {provider?.discoveryUrl ? <CopyRow label={t('provider.discovery')} value={provider.discoveryUrl} /> : null}
        </>
      ) : null}
    </SecretOnceDialog>
  );
}
