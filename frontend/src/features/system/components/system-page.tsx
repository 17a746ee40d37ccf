import { PageHeader } from '@/components/ui/card';
import { PanelCard } from './panel-card';
import { ReplicasCard } from './replicas-card';
import { TraefikCard } from './traefik-card';

export function SystemPage() {
  return (
    <>
      <PageHeader title="System" description="How this panel runs, its connection to Traefik, and the replicas that share its database." />
      <div className="stack">
        <PanelCard />
        <TraefikCard />
        <ReplicasCard />
      </div>
    </>
  );
}
