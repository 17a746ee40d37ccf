import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/modal';
import { Switch } from '@/components/ui/switch';
import { TabLinks } from '@/components/ui/tabs';
import { ServiceBadge } from '@/components/status/service-badge';
import { ExposureBadge } from '@/components/status/exposure-badge';
import { Alert } from '@/components/ui/alert';
import { useProxyHealth, useProxyMetrics, useProxyStatus } from '@/lib/api/resources';
import { useCanWrite } from '@/lib/api/system';
import { formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { Badge } from '@/components/ui/badge';
import { useDeleteService, useService, useToggleService } from '@/features/services/api/services';
import { useContainerBinding } from '@/features/services/api/container-bindings';
import { ContainerBadge } from '@/features/services/components/container-badge';
import { isStream, KindBadge } from '@/features/services/components/kind-badge';

// The arrow after a link that opens another site.
const outward = '↗';

/** Header and tabs shared by a service's pages (settings, config, security, access, traffic). */
export function ServiceLayout() {
  const { t } = useTranslation(['app', 'common']);
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const service = useService(id);
  const toggle = useToggleService();
  const del = useDeleteService();
  const [confirm, setConfirm] = useState(false);
  const s = service.data;
  const stream = isStream(s?.kind);
  const p = s?.protection;
  // The server says whether a protection or access rules would guard a stream (and so keep it unrouted).
  const leftover = !!p?.streamGuarded;
  const health = useProxyHealth().data?.items?.find((h) => h.serviceId === id);
  const metrics = useProxyMetrics();
  const m = metrics.data?.items?.find((x) => x.serviceId === id);
  const up = health?.source === 'traefik' ? (health.up ?? 0) : undefined;
  const binding = useContainerBinding(id);
  // A service its container's labels declare is changed through the labels only.
  const canWrite = useCanWrite() && binding?.source !== 'labels';
  const evidence = useProxyStatus().data?.services.find((b) => b.serviceId === id);
  return (
    <>
      <PageHeader
        breadcrumb={
          <>
            <Link to="/services">{t('nav.items.services')}</Link> <span aria-hidden="true">/</span> <span>{s?.name ?? '…'}</span>
          </>
        }
        title={s?.name ?? t('service.fallbackName')}
        description={
          // Every service has its state here; a udp service (or a catch-all tcp one) has no hostnames.
          s ? (
            <span className="row" style={{ gap: 10 }}>
              {canWrite ? (
                // The switch sits with the service's state, away from Delete.
                <Switch
                  checked={s.enabled}
                  disabled={toggle.isPending}
                  label={s.enabled ? t('common:words.enabled') : t('common:words.disabled')}
                  onChange={(e) => {
                    const enabled = e.target.checked;
                    toggle.mutate({ service: s, enabled }, { onSuccess: () => toast.success(enabled ? t('service.enabledToast', { name: s.name }) : t('service.disabledToast', { name: s.name })) });
                  }}
                />
              ) : null}
              <KindBadge kind={s.kind} />
              {s.enabled ? <ServiceBadge evidence={evidence} /> : <Badge icon="power">{t('common:words.disabled')}</Badge>}
              {stream ? null : <ExposureBadge protection={s.protection} />}
              <ContainerBadge binding={binding} />
              {(s.fqdns ?? []).map((f) =>
                // A tcp service's names are TLS names (SNI), not web pages to open.
                stream ? (
                  <span key={f} className="mono small">
                    {f}
                  </span>
                ) : (
                  <a key={f} className="mono small" href={`https://${f.replace(/^\*\./, '')}`} target="_blank" rel="noreferrer noopener">
                    {`${f} ${outward}`}
                  </a>
                ),
              )}
              {up !== undefined && health ? (
                <Badge tone={up === (health.total ?? 0) ? 'success' : up === 0 ? 'danger' : 'warning'} icon="server">
                  {t('service.backendsUp', { up, total: health.total ?? health.servers.length })}
                </Badge>
              ) : null}
              {m && metrics.data?.reachable ? <Badge tone="info" icon="activity">{t('service.requestRate', { rate: formatNumber(m.requestRate, 2) })}</Badge> : null}
            </span>
          ) : undefined
        }
        actions={
          s && canWrite ? (
            <Button variant="danger" icon="trash" onClick={() => setConfirm(true)}>
              {t('common:actions.delete')}
            </Button>
          ) : null
        }
      />
      {s?.enabled && evidence && evidence.state !== 'live' ? (
        <Alert tone={evidence.state === 'error' ? 'danger' : 'info'} title={evidence.state === 'error' ? t('service.traefikError') : evidence.message}>
          {evidence.state === 'error' ? (
            <ul className="plain-list" data-testid="traefik-errors">
              {evidence.errors.map((e) => (
                <li key={e} className="mono small">
                  {e}
                </li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
      <TabLinks
        label={t('service.sections')}
        tabs={[
          { to: `/services/${id}`, label: t('service.tabs.settings'), end: true },
          // The preview can carry password hashes: viewers may not read it (httpapi's role table).
          ...(canWrite ? [{ to: `/services/${id}/config`, label: t('service.tabs.config') }] : []),
          // Protections and access rules answer HTTP requests: a TCP or UDP service has no use for
          // these tabs (its allow list is under Settings), and the pages, opened by address, say so.
          // They stay while something is left there by an older release, so that it can be removed.
          ...(stream && !leftover
            ? []
            : [
                { to: `/services/${id}/security`, label: t('service.tabs.security') },
                { to: `/services/${id}/access`, label: t('service.tabs.access') },
              ]),
          { to: `/services/${id}/traffic`, label: t('service.tabs.traffic') },
        ]}
      />
      <Outlet />
      <ConfirmDialog
        open={confirm}
        title={s ? t('service.delete.title', { name: s.name }) : t('service.delete.titleUnnamed')}
        message={t('service.delete.message')}
        confirmLabel={t('service.delete.confirm')}
        danger
        loading={del.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() =>
          del.mutate(id, {
            onSuccess: () => {
              setConfirm(false);
              navigate('/services', { replace: true });
            },
          })
        }
      />
    </>
  );
}
