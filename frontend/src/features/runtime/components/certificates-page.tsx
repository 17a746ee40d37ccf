import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, PageHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState, ErrorState, LoadingRows, RuntimeBanner } from '@/components/ui/states';
import type { CertificatesView } from '@/lib/api-types';
import { useCertificates } from '@/lib/api/resources';
import { formatDateTime } from '@/lib/format';

function Expiry({ days, status }: { days: number; status?: string }) {
  const { t } = useTranslation('runtime');
  if (status === 'expired' || days < 0) return <Badge tone="danger" icon="xCircle">{t('certificates.expired')}</Badge>;
  if (days <= 7) return <Badge tone="danger" icon="alert">{t('certificates.daysLeft', { count: days })}</Badge>;
  if (status === 'expiring' || days < 30) return <Badge tone="warning" icon="clock">{t('certificates.daysLeft', { count: days })}</Badge>;
  return <Badge tone="success" icon="check">{t('certificates.daysLeft', { count: days })}</Badge>;
}

type Certificate = NonNullable<CertificatesView['items']>[number];

export function CertificatesPage() {
  const { t } = useTranslation('runtime');
  const certs = useCertificates();
  const data = certs.data;
  const items = data?.items ?? [];
  const live = data?.configured && data.reachable;
  const columns: Column<Certificate>[] = [
    { id: 'subject', header: t('certificates.columns.subject'), className: 'mono small', sortValue: (c) => c.subject, cell: (c) => c.subject || '—' },
    { id: 'sans', header: t('certificates.columns.sans'), className: 'mono small', style: { maxWidth: 280, overflowWrap: 'anywhere' }, cell: (c) => c.sans?.join(', ') || '—' },
    { id: 'issuer', header: t('certificates.columns.issuer'), className: 'small', sortValue: (c) => c.issuer, cell: (c) => c.issuer },
    // Soonest expiry first, as the page says.
    { id: 'expires', header: t('certificates.columns.expires'), className: 'small nowrap', sortValue: (c) => c.daysLeft, cell: (c) => formatDateTime(c.notAfter) },
    { id: 'status', header: t('certificates.columns.status'), cell: (c) => <Expiry days={c.daysLeft} status={c.status} /> },
  ];
  return (
    <>
      <PageHeader title={t('certificates.title')} description={t('certificates.description')} />
      <div className="stack">
        {certs.isError ? <ErrorState error={certs.error} onRetry={() => certs.refetch()} title={t('certificates.unavailable')} /> : null}
        <RuntimeBanner status={data} />
        {live && data?.supported === false ? (
          <Alert tone="info" title={t('certificates.requiresTitle')}>
            {data.message
              ? t('certificates.requiresDetail', { detail: data.message.replace(/^requires Traefik 3\.7 or later\s*/, '').replace(/^\(|\)$/g, '') })
              : t('certificates.requires')}
          </Alert>
        ) : null}
        {certs.isPending ? (
          <Card><LoadingRows /></Card>
        ) : live && data?.supported !== false ? (
          <Card>
            <DataTable
              data={items}
              rowKey={(c) => c.fingerprint ?? `${c.subject}-${c.notAfter}`}
              columns={columns}
              initialSort={{ id: 'expires' }}
              empty={<EmptyState icon="certificate" title={t('certificates.emptyTitle')}>
                  {t('certificates.emptyBody')}
                </EmptyState>}
            />
          </Card>
        ) : null}
      </div>
    </>
  );
}
