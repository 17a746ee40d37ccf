import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/ui/card';
import { PanelCard } from './panel-card';
import { ReplicasCard } from './replicas-card';
import { TraefikCard } from './traefik-card';

export function SystemPage() {
  const { t } = useTranslation('system');
  return (
    <>
      <PageHeader title={t('page.title')} description={t('page.description')} />
      <div className="stack">
        <PanelCard />
        <TraefikCard />
        <ReplicasCard />
      </div>
    </>
  );
}
