import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
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
import { TrafficPanel } from './traffic-panel';

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
  const { t } = useTranslation('dashboard');
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

  let traefik: { value: string; sub: string; tone: 'success' | 'warning' | 'neutral' } = { value: '…', sub: t('traefik.checking'), tone: 'neutral' };
  if (runtime.data) {
    if (!runtime.data.configured) traefik = { value: t('traefik.notSet'), sub: t('traefik.notConfigured'), tone: 'neutral' };
    else if (!runtime.data.reachable) traefik = { value: t('traefik.offline'), sub: runtime.data.error || t('traefik.unreachable'), tone: 'warning' };
    else
      traefik = {
        value: t('traefik.online'),
        sub: runtime.data.version ? t('traefik.version', { version: runtime.data.version }) : t('traefik.connected'),
        tone: 'success',
      };
  } else if (runtime.isError) traefik = { value: t('traefik.unknown'), sub: t('traefik.unavailable'), tone: 'neutral' };

  const steps = [
    { id: 'domain', done: (domains.data?.length ?? 0) > 0, title: t('steps.domain.title'), text: t('steps.domain.text'), to: '/domains', cta: t('steps.domain.cta') },
    { id: 'service', done: list.length > 0, title: t('steps.service.title'), text: t('steps.service.text'), to: '/services/new', cta: t('steps.service.cta') },
    {
      id: 'protect',
      // A protection whose rules let everyone in protects nothing.
      done: list.some(
        (s) => (s.protection?.basicAuth || s.protection?.sso || s.protection?.sharedLinks || s.protection?.tokens) && s.protection?.exposure !== 'everyone',
      ),
      title: t('steps.protect.title'),
      text: t('steps.protect.text'),
      to: list[0] ? `/services/${list[0].id}/security` : '/services',
      cta: t('steps.protect.cta'),
    },
    {
      id: 'api',
      done: !!(runtime.data?.configured && runtime.data.reachable),
      title: t('steps.api.title'),
      text: t('steps.api.text'),
      to: '/runtime',
      cta: t('steps.api.cta'),
    },
  ];
  const review = (
    <ButtonLink to="/managed" size="sm">
      {t('managed.review')}
    </ButtonLink>
  );
  const remaining = steps.filter((x) => !x.done).length;
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canWrite ? (
            <ButtonLink to="/services/new" variant="primary" icon="plus">
              {t('newService')}
            </ButtonLink>
          ) : null
        }
      />
      <div className="stack" style={{ gap: 20 }}>
        {status.data ? <PollStatus poll={status.data.poll} /> : null}
        {managed.data?.status === 'pending' ? (
          <Alert tone="info" title={t('managed.pendingTitle')} action={review}>
            {t('managed.pending')}
          </Alert>
        ) : managed.data?.status === 'rejected' ? (
          <Alert tone="danger" title={t('managed.rejectedTitle')} action={review}>
            {t('managed.rejected', { reason: managed.data.rejection?.reason || t('managed.didNotStart') })}
          </Alert>
        ) : managed.data?.status === 'waiting' ? (
          <Alert tone="info" title={t('managed.waitingTitle')} action={review}>
            {t('managed.waiting')}
          </Alert>
        ) : null}
        {expiring.length ? (
          <Alert
            tone="warning"
            title={t('expiring.title', { count: expiring.length })}
            action={
              <ButtonLink to="/certificates" size="sm">
                {t('expiring.view')}
              </ButtonLink>
            }
          >
            {joinNames(
              expiring.map((c) => t('expiring.item', { subject: c.subject, count: c.daysLeft })),
              3,
            )}
          </Alert>
        ) : null}
        <div className="grid-4 stats">
          <Stat
            icon="services"
            label={t('stats.services')}
            to="/services"
            value={services.isPending ? '…' : `${enabled}/${list.length}`}
            sub={t('stats.servicesSub')}
          />
          <Stat
            icon="server"
            label={t('stats.backends')}
            value={health.data?.reachable ? `${up}/${servers.length}` : '—'}
            sub={
              health.data?.reachable
                ? servers.length - up > 0
                  ? t('stats.down', { count: servers.length - up })
                  : t('stats.allUp')
                : health.data?.configured
                  ? t('stats.unreachable')
                  : t('stats.needsApi')
            }
          />
          <Stat
            icon="activity"
            label={t('stats.traefik')}
            to="/runtime"
            value={<span style={{ color: traefik.tone === 'success' ? 'var(--success)' : traefik.tone === 'warning' ? 'var(--warning)' : undefined }}>{traefik.value}</span>}
            sub={traefik.sub}
          />
          <Stat
            icon="certificate"
            label={t('stats.certificates')}
            to="/certificates"
            value={certs.data?.supported && certs.data.reachable ? String(expiring.length) : '—'}
            sub={
              !certs.data?.configured
                ? t('stats.needsApi')
                : !certs.data.reachable
                  ? t('stats.unreachable')
                  : certs.data.supported === false
                    ? t('stats.requires37')
                    : t('stats.expiringSub')
            }
          />
        </div>
        <TrafficPanel />
        <div className="dash-grid">
          <Card>
            <CardHeader
              title={t('recent.title')}
              description={t('recent.description')}
              actions={
                <ButtonLink to="/services" size="sm" variant="ghost">
                  {t('recent.viewAll')}
                </ButtonLink>
              }
            />
            {services.isPending ? (
              <LoadingRows />
            ) : (
              <DataTable
                data={[...list].reverse().slice(0, 6)}
                rowKey={(s) => s.id}
                empty={
                  <EmptyState
                    icon="services"
                    title={t('recent.emptyTitle')}
                    action={
                      canWrite ? (
                        <ButtonLink to="/services/new" variant="primary" icon="plus">
                          {t('recent.create')}
                        </ButtonLink>
                      ) : undefined
                    }
                  >
                    {t('recent.emptyBody')}
                  </EmptyState>
                }
                columns={[
                  { id: 'name', header: t('recent.columns.service'), cell: (s) => <Link to={`/services/${s.id}`} className="service-name">{s.name}</Link> },
                  { id: 'hostname', header: t('recent.columns.hostname'), className: 'mono small cell-wrap', cell: (s) => s.fqdns?.[0] ?? '—' },
                  {
                    id: 'status',
                    header: t('recent.columns.status'),
                    cell: (s) => (s.enabled ? <ServiceBadge evidence={badgeById.get(s.id)} /> : <Badge icon="power">{t('recent.disabled')}</Badge>),
                  },
                  { id: 'created', header: t('recent.columns.created'), className: 'muted small nowrap', cell: (s) => formatDateTime(s.createdAt) },
                ]}
              />
            )}
          </Card>
          <Card>
            <CardHeader
              title={remaining ? t('steps.title') : t('steps.allSet')}
              description={remaining ? t('steps.progress', { done: steps.length - remaining, total: steps.length }) : t('steps.allSetBody')}
            />
            <ol className="checklist">
              {steps.map((st) => (
                <li key={st.id}>
                  <span className={`check-mark${st.done ? ' done' : ''}`} aria-hidden="true">
                    <Icon name="check" size={13} />
                  </span>
                  <div className="grow">
                    <div style={{ fontWeight: 600 }}>
                      {st.title}
                      <span className="sr-only"> {st.done ? t('steps.done') : t('steps.todo')}</span>
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
