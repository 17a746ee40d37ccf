import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import type { ContainerBinding } from '@/lib/api-types';

const tone = { running: 'success', stopped: 'warning', gone: 'danger' } as const;

/** The container a service follows, and whether it runs; "managed by labels" when its labels declare the service. */
export function ContainerBadge({ binding }: { binding: ContainerBinding | undefined }) {
  const { t } = useTranslation('services');
  if (!binding) return null;
  return (
    <>
      <Badge tone={tone[binding.state]} icon="box" title={binding.address ? t('container.target', { address: binding.address }) : undefined}>
        {t(`container.state.${binding.state}`, { name: binding.container })}
      </Badge>
      {binding.source === 'labels' ? (
        <Badge tone="primary" icon="lock" title={t('container.labelsTitle')}>
          {t('container.labels')}
        </Badge>
      ) : null}
    </>
  );
}
