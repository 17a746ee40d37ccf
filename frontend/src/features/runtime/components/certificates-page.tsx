import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, PageHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState, ErrorState, LoadingRows, RuntimeBanner } from '@/components/ui/states';
import type { CertificatesView } from '@/lib/api-types';
import { useCertificates } from '@/lib/api/resources';
import { formatDateTime } from '@/lib/format';

function Expiry({ days, status }: { days: number; status?: string }) {
  if (status === 'expired' || days < 0) return <Badge tone="danger" icon="xCircle">Expired</Badge>;
  if (days <= 7) return <Badge tone="danger" icon="alert">{days} days left</Badge>;
  if (status === 'expiring' || days < 30) return <Badge tone="warning" icon="clock">{days} days left</Badge>;
  return <Badge tone="success" icon="check">{days} days left</Badge>;
}

type Certificate = NonNullable<CertificatesView['items']>[number];

const columns: Column<Certificate>[] = [
  { id: 'subject', header: 'Subject', className: 'mono small', sortValue: (c) => c.subject, cell: (c) => c.subject || '—' },
  { id: 'sans', header: 'Alternative names', className: 'mono small', style: { maxWidth: 280, overflowWrap: 'anywhere' }, cell: (c) => c.sans?.join(', ') || '—' },
  { id: 'issuer', header: 'Issuer', className: 'small', sortValue: (c) => c.issuer, cell: (c) => c.issuer },
  // Soonest expiry first, as the page says.
  { id: 'expires', header: 'Expires', className: 'small nowrap', sortValue: (c) => c.daysLeft, cell: (c) => formatDateTime(c.notAfter) },
  { id: 'status', header: 'Status', cell: (c) => <Expiry days={c.daysLeft} status={c.status} /> },
];

export function CertificatesPage() {
  const certs = useCertificates();
  const data = certs.data;
  const items = data?.items ?? [];
  const live = data?.configured && data.reachable;
  return (
    <>
      <PageHeader title="Certificates" description="TLS certificates Traefik holds, soonest expiry first. Traefik renews ACME certificates 30 days before they expire." />
      <div className="stack">
        {certs.isError ? <ErrorState error={certs.error} onRetry={() => certs.refetch()} title="The certificates view is unavailable" /> : null}
        <RuntimeBanner status={data} />
        {live && data?.supported === false ? (
          <Alert tone="info" title="Requires Traefik 3.7">
            Listing certificates needs the certificates endpoint of Traefik's API, added in Traefik 3.7
            {data.message ? ` (${data.message.replace(/^requires Traefik 3\.7 or later\s*/, '').replace(/^\(|\)$/g, '')})` : ''}. Upgrade Traefik to see
            them here.
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
              empty={<EmptyState icon="certificate" title="No certificates yet">Traefik requests certificates when a router with a resolver first gets traffic.</EmptyState>}
            />
          </Card>
        ) : null}
      </div>
    </>
  );
}
