import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, PageHeader } from '@/components/ui/card';
import { EmptyState, ErrorState, LoadingRows, RuntimeBanner } from '@/components/ui/states';
import { useCertificates } from '@/lib/api/resources';
import { formatDateTime } from '@/lib/format';

function Expiry({ days, status }: { days: number; status?: string }) {
  if (status === 'expired' || days < 0) return <Badge tone="danger" icon="xCircle">Expired</Badge>;
  if (days <= 7) return <Badge tone="danger" icon="alert">{days} days left</Badge>;
  if (status === 'expiring' || days < 30) return <Badge tone="warning" icon="clock">{days} days left</Badge>;
  return <Badge tone="success" icon="check">{days} days left</Badge>;
}

export function CertificatesPage() {
  const certs = useCertificates();
  const data = certs.data;
  const items = [...(data?.items ?? [])].sort((a, b) => a.daysLeft - b.daysLeft);
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
            {items.length === 0 ? (
              <EmptyState icon="certificate" title="No certificates yet">Traefik requests certificates when a router with a resolver first gets traffic.</EmptyState>
            ) : (
              <div className="table-wrap">
                <table className="table stacked">
                  <thead>
                    <tr>
                      <th scope="col">Subject</th>
                      <th scope="col">Alternative names</th>
                      <th scope="col">Issuer</th>
                      <th scope="col">Expires</th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((c) => (
                      <tr key={c.fingerprint ?? `${c.subject}-${c.notAfter}`}>
                        <td className="mono small">{c.subject || '—'}</td>
                        <td className="mono small" style={{ maxWidth: 280, overflowWrap: 'anywhere' }} data-label="Alternative names">{c.sans?.join(', ') || '—'}</td>
                        <td className="small" data-label="Issuer">{c.issuer}</td>
                        <td className="small nowrap" data-label="Expires">{formatDateTime(c.notAfter)}</td>
                        <td data-label="Status"><Expiry days={c.daysLeft} status={c.status} /></td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Card>
        ) : null}
      </div>
    </>
  );
}
