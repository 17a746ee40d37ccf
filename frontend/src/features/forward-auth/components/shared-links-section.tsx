import { useFormContext, useWatch } from 'react-hook-form';
import { Switch } from '@/components/ui/switch';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

export function SharedLinksSection(_: SectionProps) {
  const { register } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'sharedLinks.enabled'>({ name: 'sharedLinks.enabled' });
  return (
    <SectionCard
      title="Shared links"
      icon="link"
      on={enabled}
      description="One-time links that let a guest in without an account, optionally with a PIN or password. Create them below once this is saved on."
    >
      <Switch {...register('sharedLinks.enabled')} label={enabled ? 'Shared links are accepted' : 'Accept shared links for this service'} />
    </SectionCard>
  );
}
