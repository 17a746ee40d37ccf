import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Switch } from '@/components/ui/switch';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

export function SharedLinksSection(_: SectionProps) {
  const { t } = useTranslation('forward-auth');
  const { register } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'sharedLinks.enabled'>({ name: 'sharedLinks.enabled' });
  return (
    <SectionCard
      title={t('sharedLinks.title')}
      icon="link"
      on={enabled}
      description={t('sharedLinks.description')}
    >
      <Switch {...register('sharedLinks.enabled')} label={enabled ? t('sharedLinks.accepted') : t('sharedLinks.accept')} />
    </SectionCard>
  );
}
