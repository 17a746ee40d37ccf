import { useState } from 'react';
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

/** Header and tabs shared by a service's pages (settings, config, security, access). */
export function ServiceLayout() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const service = useService(id);
  const toggle = useToggleService();
  const del = useDeleteService();
  const [confirm, setConfirm] = useState(false);
  const s = service.data;
  const health = useProxyHealth().data?.items?.find((h) => h.serviceId === id);
  const metrics = useProxyMetrics();
  const m = metrics.data?.items?.find((x) => x.serviceId === id);
  const up = health?.source === 'traefik' ? (health.up ?? 0) : undefined;
  const canWrite = useCanWrite();
  const evidence = useProxyStatus().data?.services.find((b) => b.serviceId === id);
  return (
    <>
      <PageHeader
        breadcrumb={
          <>
            <Link to="/services">Services</Link> <span aria-hidden="true">/</span> <span>{s?.name ?? '…'}</span>
          </>
        }
        title={s?.name ?? 'Service'}
        description={
          s?.fqdns?.length ? (
            <span className="row" style={{ gap: 10 }}>
              {canWrite ? (
                // The switch sits with the service's state, away from Delete.
                <Switch
                  checked={s.enabled}
                  disabled={toggle.isPending}
                  label={s.enabled ? 'Enabled' : 'Disabled'}
                  onChange={(e) => {
                    const enabled = e.target.checked;
                    toggle.mutate({ service: s, enabled }, { onSuccess: () => toast.success(`${s.name} ${enabled ? 'enabled' : 'disabled'}`) });
                  }}
                />
              ) : null}
              {s.enabled ? <ServiceBadge evidence={evidence} /> : <Badge icon="power">Disabled</Badge>}
              <ExposureBadge protection={s.protection} />
              {s.fqdns.map((f) => (
                <a key={f} className="mono small" href={`https://${f.replace(/^\*\./, '')}`} target="_blank" rel="noreferrer noopener">
                  {f} ↗
                </a>
              ))}
              {up !== undefined && health ? (
                <Badge tone={up === (health.total ?? 0) ? 'success' : up === 0 ? 'danger' : 'warning'} icon="server">
                  {`${up}/${health.total ?? health.servers.length} backends up`}
                </Badge>
              ) : null}
              {m && metrics.data?.reachable ? <Badge tone="info" icon="activity">{`${formatNumber(m.requestRate, 2)} req/s`}</Badge> : null}
            </span>
          ) : undefined
        }
        actions={
          s && canWrite ? (
            <Button variant="danger" icon="trash" onClick={() => setConfirm(true)}>
              Delete
            </Button>
          ) : null
        }
      />
      {s?.enabled && evidence && evidence.state !== 'live' ? (
        <Alert tone={evidence.state === 'error' ? 'danger' : 'info'} title={evidence.state === 'error' ? 'Traefik reports an error' : evidence.message}>
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
        label="Service sections"
        tabs={[
          { to: `/services/${id}`, label: 'Settings', end: true },
          // The preview can carry password hashes: viewers may not read it (httpapi's role table).
          ...(canWrite ? [{ to: `/services/${id}/config`, label: 'Config preview' }] : []),
          { to: `/services/${id}/security`, label: 'Security' },
          { to: `/services/${id}/access`, label: 'Access' },
        ]}
      />
      <Outlet />
      <ConfirmDialog
        open={confirm}
        title={`Delete ${s?.name ?? 'service'}?`}
        message="Traefik stops routing its hostnames on the next poll; its shared links and sessions stop working. This cannot be undone."
        confirmLabel="Delete service"
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
