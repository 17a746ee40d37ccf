import { useParams } from 'react-router';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { useService } from '../api/services';
import { ServiceForm } from './service-form';

export function ServiceEditPage() {
  const { id } = useParams();
  const service = useService(id);
  if (service.isPending) return <LoadingRows rows={6} />;
  if (service.isError) return <ErrorState error={service.error} onRetry={() => service.refetch()} />;
  return <ServiceForm service={service.data} onSaved={() => undefined} />;
}
