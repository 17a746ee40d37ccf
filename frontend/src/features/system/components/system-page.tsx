import { PageHeader } from '@/components/ui/card';
import { ReplicasCard } from './replicas-card';

export function SystemPage() {
  return (
    <>
      <PageHeader title="System" description="How this panel runs: its database and the replicas that share it." />
      <div className="stack">
        <ReplicasCard />
      </div>
    </>
  );
}
