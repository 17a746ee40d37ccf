import { PageHeader } from '@/components/ui/card';
import { AccessLogTable } from './access-log-table';

export function AccessLogPage() {
  return (
    <>
      <PageHeader title="Access log" description="What the panel decided for each request Traefik asked about, across all services." />
      <AccessLogTable title="Requests" />
    </>
  );
}
