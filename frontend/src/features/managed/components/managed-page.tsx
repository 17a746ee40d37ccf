import { PageHeader } from '@/components/ui/card';

export function ManagedPage() {
  return <PageHeader title="Managed Traefik" description="Coming soon." />;
}
