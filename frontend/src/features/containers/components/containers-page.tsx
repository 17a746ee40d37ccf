import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { Container } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { useContainers } from '../api/containers';
import { CreateServiceModal } from './create-service-modal';

const healthTone = { healthy: 'success', unhealthy: 'danger', starting: 'warning' } as const;

/** The engine's running containers: where Traefik would reach each, and the services made from them. */
export function ContainersPage() {
  const { t } = useTranslation(['containers', 'common']);
  const canWrite = useCanWrite();
  const list = useContainers();
  const [creating, setCreating] = useState<Container | null>(null);
  const data = list.data;
  const columns: Column<Container>[] = [
    {
      id: 'name',
      header: t('list.columns.container'),
      sortValue: (c) => c.name,
      cell: (c) => (
        <div className="stack-sm" style={{ gap: 2 }}>
          <strong className="mono">{c.name}</strong>
          <span className="muted small mono">{c.image}</span>
        </div>
      ),
    },
    {
      id: 'state',
      header: t('list.columns.state'),
      cell: (c) => (
        <div className="row" style={{ gap: 6 }}>
          <Badge tone={c.state === 'running' ? 'success' : 'neutral'}>{c.state}</Badge>
          {c.health ? <Badge tone={healthTone[c.health as keyof typeof healthTone] ?? 'neutral'}>{c.health}</Badge> : null}
        </div>
      ),
    },
    {
      id: 'networks',
      header: t('list.columns.networks'),
      cell: (c) => (
        <ul className="plain small">
          {c.networks.map((n) => (
            <li key={n.name} className="row" style={{ gap: 6 }}>
              <span className="mono">{`${n.name} ${n.address || '—'}`}</span>
              {n.traefik ? <Badge tone="info">{t('list.traefik')}</Badge> : null}
            </li>
          ))}
        </ul>
      ),
    },
    {
      id: 'ports',
      header: t('list.columns.ports'),
      cell: (c) => (
        <span className="mono small">
          {c.ports.length ? c.ports.map((p) => (p.public ? `${p.private}→${p.public}` : `${p.private}`) + (p.protocol && p.protocol !== 'tcp' ? `/${p.protocol}` : '')).join(', ') : '—'}
        </span>
      ),
    },
    {
      id: 'services',
      header: t('list.columns.services'),
      cell: (c) => (
        <div className="stack-sm" style={{ gap: 4 }}>
          {c.services.map((s) => (
            <span key={s.serviceId} className="row" style={{ gap: 6 }}>
              <Link to={`/services/${s.serviceId}`}>{t('list.openService')}</Link>
              <Badge tone={s.source === 'labels' ? 'primary' : 'neutral'}>{s.source === 'labels' ? t('list.byLabels') : t('list.bound')}</Badge>
            </span>
          ))}
          {c.declared && c.labelErrors.length > 0 ? (
            <Alert tone="danger" title={t('list.labelErrors', { count: c.labelErrors.length })}>
              <ul className="plain small">
                {c.labelErrors.map((e) => (
                  <li key={`${e.label}:${e.message}`}>
                    <code>{e.label}</code> {e.message}
                  </li>
                ))}
              </ul>
            </Alert>
          ) : null}
          {!c.services.length && !c.declared ? <span className="muted small">{t('list.none')}</span> : null}
        </div>
      ),
    },
    actionsColumn((c) =>
      canWrite ? (
        <Button size="sm" variant="ghost" icon="plus" onClick={() => setCreating(c)} aria-label={t('list.createLabel', { name: c.name })}>
          {t('list.create')}
        </Button>
      ) : null,
    ),
  ];
  return (
    <>
      <PageHeader title={t('list.title')} description={t('list.description')} />
      {list.isError ? <ErrorState error={list.error} onRetry={() => list.refetch()} /> : null}
      {data?.state === 'not_configured' ? (
        <Alert tone="info" title={t('list.notConfigured')}>
          <Trans t={t} i18nKey="list.notConfiguredBody" components={{ code: <code /> }} />
        </Alert>
      ) : null}
      {data?.state === 'unreachable' ? (
        <Alert tone="danger" title={t('list.unreachable')}>
          {data.reason}
        </Alert>
      ) : null}
      {data?.state === 'ok' && data.traefikNetworks.length === 0 ? (
        <Alert tone="warning" title={t('list.noTraefikNetworks')}>
          <Trans t={t} i18nKey="list.noTraefikNetworksBody" components={{ code: <code /> }} />
        </Alert>
      ) : null}
      <Card>
        {list.isPending ? (
          <LoadingRows />
        ) : (
          <DataTable
            data={data?.items ?? []}
            rowKey={(c) => c.id}
            columns={columns}
            empty={list.isError || data?.state !== 'ok' ? undefined : <EmptyState icon="box" title={t('list.emptyTitle')}>{t('list.emptyBody')}</EmptyState>}
          />
        )}
      </Card>
      <CreateServiceModal container={creating} onClose={() => setCreating(null)} />
    </>
  );
}
