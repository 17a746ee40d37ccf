import { useParams, useSearchParams } from 'react-router';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { useService } from '../api/services';
import { NextSteps } from './next-steps';
import { ServiceForm } from './service-form';

export function ServiceEditPage() {
  const { id } = useParams();
  const service = useService(id);
  const [search] = useSearchParams();
  if (service.isPending) return <LoadingRows rows={6} />;
  if (service.isError) return <ErrorState error={service.error} onRetry={() => service.refetch()} />;
  return (
    <div className="stack">
      {search.has('created') ? <NextSteps service={service.data} /> : null}
      <ServiceForm service={service.data} onSaved={() => undefined} />
    </div>
  );
}
