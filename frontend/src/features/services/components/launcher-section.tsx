import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { Section, type Sub } from './form-section';

/** How the service shows on the portal's launcher, to the people its people protection admits. */
export function LauncherSection({ register, errors }: Sub) {
  const { t } = useTranslation('services');
  return (
    <Section title={t('launcher.title')} description={t('launcher.description')}>
      <div className="stack">
        <label className="checkbox">
          <input type="checkbox" {...register('launcherHidden')} />
          <span className="checkbox-text">
            <span>{t('launcher.hide')}</span>
          </span>
        </label>
        <Field label={t('launcher.descriptionLabel')} optional error={errors.launcherDescription?.message}>
          <input className="input" placeholder={t('launcher.descriptionPlaceholder')} {...register('launcherDescription')} />
        </Field>
        <div className="grid-2">
          <Field label={t('launcher.icon')} optional error={errors.launcherIcon?.message} hint={t('launcher.iconHint')}>
            <input className="input mono" placeholder={t('launcher.iconPlaceholder')} {...register('launcherIcon')} />
          </Field>
          <Field label={t('launcher.group')} optional error={errors.launcherGroup?.message}>
            <input className="input" placeholder={t('launcher.groupPlaceholder')} {...register('launcherGroup')} />
          </Field>
          <Field label={t('launcher.order')} error={errors.launcherOrder?.message} hint={t('launcher.orderHint')}>
            <input className="input mono" inputMode="numeric" {...register('launcherOrder', { valueAsNumber: true })} />
          </Field>
        </div>
      </div>
    </Section>
  );
}
