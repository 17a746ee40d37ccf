import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import { Section, type Sub } from './form-section';

/**
 * Proxy to the targets, or redirect every request to a URL (the targets are
 * kept); either can be switched to the maintenance page.
 */
export function KindSection({ control, register, errors }: Sub) {
  const { t } = useTranslation('services');
  const kind = useWatch({ control, name: 'kind' });
  const maintenance = useWatch({ control, name: 'maintenance' });
  return (
    <Section title={t('kind.title')} description={t('kind.description')}>
      <div className="stack">
        <div className="radio-cards" role="radiogroup" aria-label={t('kind.title')}>
          <label className="radio-card">
            <input type="radio" value="proxy" {...register('kind')} />
            <span>{t('kind.proxy')}</span>
          </label>
          <label className="radio-card">
            <input type="radio" value="redirect" {...register('kind')} />
            <span>{t('kind.redirect')}</span>
          </label>
          <label className="radio-card">
            <input type="radio" value="tcp" {...register('kind')} />
            <span>{t('kind.tcp')}</span>
          </label>
          <label className="radio-card">
            <input type="radio" value="udp" {...register('kind')} />
            <span>{t('kind.udp')}</span>
          </label>
        </div>
        {kind === 'tcp' || kind === 'udp' ? <p className="field-hint" style={{ margin: 0 }}>{t(kind === 'tcp' ? 'kind.tcpHint' : 'kind.udpHint')}</p> : null}
        {kind === 'redirect' ? (
          <>
            <Field label={t('kind.redirectTo')} error={errors.redirectUrl?.message} hint={t('kind.redirectToHint')}>
              <input className="input mono" placeholder={t('kind.redirectToPlaceholder')} autoCapitalize="off" spellCheck={false} {...register('redirectUrl')} />
            </Field>
            <Field label={t('kind.redirectType')}>
              <select
                className="select"
                style={{ maxWidth: 420 }}
                {...register('redirectPermanent', { setValueAs: (v: string | boolean) => v === true || v === 'true' })}
              >
                <option value="true">{t('kind.permanent')}</option>
                <option value="false">{t('kind.temporary')}</option>
              </select>
            </Field>
            <label className="checkbox">
              <input type="checkbox" {...register('redirectKeepPath')} />
              <span className="checkbox-text">
                <span>{t('kind.keepPath')}</span>
                <span className="field-hint">{t('kind.keepPathHint')}</span>
              </span>
            </label>
          </>
        ) : null}
        {kind === 'tcp' || kind === 'udp' ? null : (
        <div className="field">
          <span className="field-label">{t('kind.maintenance')}</span>
          <Controller
            control={control}
            name="maintenance"
            render={({ field }) => (
              <Switch
                checked={field.value}
                onChange={(e) => field.onChange(e.target.checked)}
                label={field.value ? t('kind.maintenanceOn') : t('kind.maintenanceOff')}
              />
            )}
          />
          <div className="field-hint">{kind === 'redirect' ? t('kind.maintenanceHintRedirect') : t('kind.maintenanceHintProxy')}</div>
        </div>
        )}
        {maintenance && kind !== 'tcp' && kind !== 'udp' ? (
          <Field label={t('kind.maintenanceMessage')} optional error={errors.maintenanceMessage?.message} hint={t('kind.maintenanceMessageHint')}>
            <textarea className="input" rows={3} placeholder={t('kind.maintenanceMessagePlaceholder')} {...register('maintenanceMessage')} />
          </Field>
        ) : null}
      </div>
    </Section>
  );
}
