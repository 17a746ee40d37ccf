import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { ButtonLink } from '@/components/ui/button';
import { Card, CardHeader, PageHeader } from '@/components/ui/card';
import { DataTable } from '@/components/ui/data-table';
import { Icon, type IconName } from '@/components/ui/icons';
import { EmptyState, LoadingRows } from '@/components/ui/states';
import { api } from '@/lib/api-client';
import { ServiceBadge } from '@/components/status/service-badge';
import { useCertificates, useDomains, useProxyHealth, useProxyStatus, useRuntime, useServices } from '@/lib/api/resources';
import { useCanWrite, useSystem } from '@/lib/api/system';
import { formatDateTime, joinNames } from '@/lib/format';
import { qk } from '@/lib/query-keys';
import { PollStatus } from './poll-status';

function Stat({ icon, label, value, sub, to }: { icon: IconName; label: string; value: React.ReactNode; sub?: React.ReactNode; to?: string }) {
  const body = (
    <div className="stat">
      <span className="stat-label">
        <Icon name={icon} size={15} />
        {label}
      </span>
      <span className="stat-value">{value}</span>
      {sub ? <span className="stat-sub">{sub}</span> : null}
    </div>
  );
  return <Card>{to ? <Link to={to} style={{ color: 'inherit', textDecoration: 'none', display: 'block' }}>{body}</Link> : body}</Card>;
}

export function DashboardPage() {
  const canWrite = useCanWrite();
  const system = useSystem();
  const services = useServices();
  const domains = useDomains();
  const health = useProxyHealth();
  const runtime = useRuntime();
  const certs = useCertificates();
  const status = useProxyStatus();
  const badgeById = new Map((status.data?.services ?? []).map((b) => [b.serviceId, b]));
  const managed = useQuery({
    queryKey: qk.managed.state(),
    queryFn: () => api.get('/api/proxy/managed'),
    enabled: !!system.data?.managed,
    meta: { quiet: true },
    retry: false,
  });

  const list = services.data ?? [];
  const enabled = list.filter((s) => s.enabled).length;
  const servers = (health.data?.items ?? []).flatMap((h) => h.servers);
  const up = servers.filter((s) => s.status.toUpperCase() === 'UP').length;
  const expiring = (certs.data?.items ?? []).filter((c) => c.daysLeft <= 14);

  let traefik: { value: string; sub: string; tone: 'success' | 'warning' | 'neutral' } = { value: '…', sub: 'checking', tone: 'neutral' };
  if (runtime.data) {
    if (!runtime.data.configured) traefik = { value: 'Not set', sub: 'Traefik API not configured', tone: 'neutral' };
    else if (!runtime.data.reachable) traefik = { value: 'Offline', sub: runtime.data.error || 'unreachable', tone: 'warning' };
    else traefik = { value: 'Online', sub: runtime.data.version ? `Traefik ${runtime.data.version}` : 'connected', tone: 'success' };
  } else if (runtime.isError) traefik = { value: 'Unknown', sub: 'runtime view unavailable', tone: 'neutral' };

  const steps = [
    { done: (domains.data?.length ?? 0) > 0, title: 'Add a domain', text: 'The base name your services live under.', to: '/domains', cta: 'Domains' },
    { done: list.length > 0, title: 'Publish a service', text: 'Point a hostname at an upstream.', to: '/services/new', cta: 'New service' },
    {
      // A protection whose rules let everyone in protects nothing.
      done: list.some(
        (s) => (s.protection?.basicAuth || s.protection?.sso || s.protection?.sharedLinks || s.protection?.tokens) && s.protection?.exposure !== 'everyone',
      ),
      title: 'Protect a service',
      text: 'Basic auth, single sign-on or shared links.',
      to: list[0] ? `/services/${list[0].id}/security` : '/services',
      cta: 'Security',
    },
    {
      done: !!(runtime.data?.configured && runtime.data.reachable),
      title: "Connect Traefik's API",
      text: 'For live routers, backend health, metrics and certificates.',
      to: '/runtime',
      cta: 'Runtime',
    },
  ];
  const remaining = steps.filter((x) => !x.done).length;
  return (
    <>
      <PageHeader
        title="Dashboard"
        description="An overview of what Traefik is serving through Gatehouse."
        actions={
          canWrite ? (
            <ButtonLink to="/services/new" variant="primary" icon="plus">
              New service
            </ButtonLink>
          ) : null
        }
      />
      <div className="stack" style={{ gap: 20 }}>
        {status.data ? <PollStatus poll={status.data.poll} /> : null}
        {managed.data?.status === 'pending' ? (
          <Alert tone="info" title="Managed configuration change pending" action={<ButtonLink to="/managed" size="sm">Review</ButtonLink>}>
            The Traefik wrapper fetches the new static configuration at its next poll and restarts Traefik with it.
          </Alert>
        ) : managed.data?.status === 'rejected' ? (
          <Alert tone="danger" title="Traefik rejected the managed configuration" action={<ButtonLink to="/managed" size="sm">Review</ButtonLink>}>
            {managed.data.rejection?.reason || 'Traefik did not start with it'}. The wrapper went back to the previous configuration.
          </Alert>
        ) : managed.data?.status === 'waiting' ? (
          <Alert tone="info" title="Waiting for the Traefik wrapper's first report" action={<ButtonLink to="/managed" size="sm">Review</ButtonLink>}>
            The wrapper reports the configuration Traefik runs a few seconds after it starts Traefik.
          </Alert>
        ) : null}
        {expiring.length ? (
          <Alert tone="warning" title={`${expiring.length} certificate${expiring.length === 1 ? '' : 's'} expiring soon`} action={<ButtonLink to="/certificates" size="sm">View</ButtonLink>}>
            {joinNames(expiring.map((c) => `${c.subject} (${c.daysLeft} days)`), 3)}
          </Alert>
        ) : null}
        <div className="grid-4 stats">
          <Stat icon="services" label="Services" to="/services" value={services.isPending ? '…' : `${enabled}/${list.length}`} sub="enabled / total" />
          <Stat
            icon="server"
            label="Backends"
            value={health.data?.reachable ? `${up}/${servers.length}` : '—'}
            sub={health.data?.reachable ? (servers.length - up > 0 ? `${servers.length - up} down` : 'all up') : health.data?.configured ? 'Traefik unreachable' : 'needs the Traefik API'}
          />
          <Stat
            icon="activity"
            label="Traefik"
            to="/runtime"
            value={<span style={{ color: traefik.tone === 'success' ? 'var(--success)' : traefik.tone === 'warning' ? 'var(--warning)' : undefined }}>{traefik.value}</span>}
            sub={traefik.sub}
          />
          <Stat
            icon="certificate"
            label="Certificates"
            to="/certificates"
            value={certs.data?.supported && certs.data.reachable ? String(expiring.length) : '—'}
            sub={
              !certs.data?.configured ? 'needs the Traefik API' : !certs.data.reachable ? 'Traefik unreachable' : certs.data.supported === false ? 'requires Traefik 3.7' : 'expiring within 14 days'
            }
          />
        </div>
        <div className="dash-grid">
          <Card>
            <CardHeader title="Services" description="Most recently created" actions={<ButtonLink to="/services" size="sm" variant="ghost">View all</ButtonLink>} />
            {services.isPending ? (
              <LoadingRows />
            ) : (
              <DataTable
                data={[...list].reverse().slice(0, 6)}
                rowKey={(s) => s.id}
                empty={
                  <EmptyState icon="services" title="Nothing published yet" action={canWrite ? <ButtonLink to="/services/new" variant="primary" icon="plus">Create a service</ButtonLink> : undefined}>
                    Start by adding a domain, then publish your first service on it.
                  </EmptyState>
                }
                columns={[
                  { id: 'name', header: 'Service', cell: (s) => <Link to={`/services/${s.id}`} className="service-name">{s.name}</Link> },
                  { id: 'hostname', header: 'Hostname', className: 'mono small cell-wrap', cell: (s) => s.fqdns?.[0] ?? '—' },
                  { id: 'status', header: 'Status', cell: (s) => (s.enabled ? <ServiceBadge evidence={badgeById.get(s.id)} /> : <Badge icon="power">Disabled</Badge>) },
                  { id: 'created', header: 'Created', className: 'muted small nowrap', cell: (s) => formatDateTime(s.createdAt) },
                ]}
              />
            )}
          </Card>
          <Card>
            <CardHeader
              title={remaining ? 'Getting started' : 'All set'}
              description={remaining ? `${steps.length - remaining} of ${steps.length} done` : 'Gatehouse is fully set up.'}
            />
            <ol className="checklist">
              {steps.map((st) => (
                <li key={st.title}>
                  <span className={`check-mark${st.done ? ' done' : ''}`} aria-hidden="true">
                    <Icon name="check" size={13} />
                  </span>
                  <div className="grow">
                    <div style={{ fontWeight: 600 }}>
                      {st.title}
                      <span className="sr-only">{st.done ? ' (done)' : ' (to do)'}</span>
                    </div>
                    <div className="small muted">{st.text}</div>
                  </div>
                  {!st.done && canWrite ? (
                    <ButtonLink to={st.to} size="sm">
                      {st.cta}
                    </ButtonLink>
                  ) : null}
                </li>
              ))}
            </ol>
          </Card>
        </div>
      </div>
    </>
  );
}
