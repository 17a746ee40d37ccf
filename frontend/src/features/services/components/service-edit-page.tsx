import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { useCanWrite } from '@/lib/api/system';
import { useContainerBinding, useDetachContainer } from '../api/container-bindings';
import { useService } from '../api/services';
import { NextSteps } from './next-steps';
import { ServiceForm } from './service-form';

export function ServiceEditPage() {
  const { t } = useTranslation('services');
  const { id } = useParams();
  const service = useService(id);
  const binding = useContainerBinding(id);
  const detach = useDetachContainer();
  const canWrite = useCanWrite();
  const [search] = useSearchParams();
  if (service.isPending) return <LoadingRows rows={6} />;
  if (service.isError) return <ErrorState error={service.error} onRetry={() => service.refetch()} />;
  const labelled = binding?.source === 'labels';
  return (
    <div className="stack">
      {search.has('created') ? <NextSteps service={service.data} /> : null}
      {labelled ? (
        <Alert
          tone="info"
          title={t('container.lockedTitle', { name: binding.container })}
          action={
            canWrite ? (
              <Button size="sm" loading={detach.isPending} onClick={() => detach.mutate(binding.serviceId)}>
                {t('container.detach')}
              </Button>
            ) : undefined
          }
        >
          {binding.labelError ? t('container.lockedError', { error: binding.labelError }) : t('container.lockedBody')}
        </Alert>
      ) : null}
      {binding && !labelled ? (
        <Alert
          tone={binding.state === 'running' ? 'info' : 'warning'}
          title={t(`container.follows.${binding.state}`, { name: binding.container })}
          action={
            canWrite ? (
              <Button size="sm" variant="ghost" loading={detach.isPending} onClick={() => detach.mutate(binding.serviceId)}>
                {t('container.detach')}
              </Button>
            ) : undefined
          }
        >
          {t('container.followsBody', { address: binding.address })}
        </Alert>
      ) : null}
      <ServiceForm service={service.data} onSaved={() => undefined} locked={labelled} />
    </div>
  );
}
