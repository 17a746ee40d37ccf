import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { Section, type Sub } from './form-section';

/** The cookie attribute's values, written as in the Set-Cookie header (not translated). */
const sameSiteValues = [
  ['lax', 'Lax'],
  ['strict', 'Strict'],
  ['none', 'None'],
] as const;

/** Traefik's health check, sticky sessions and upstream timeouts. */
export function LoadBalancingSection({ control, register, errors }: Sub) {
  const { t } = useTranslation('services');
  const hcOn = useWatch({ control, name: 'hcOn' });
  const stickyOn = useWatch({ control, name: 'stickyOn' });
  const num = { valueAsNumber: true } as const;
  return (
    <Section title={t('lb.title')} description={t('lb.description')}>
      <div className="stack">
        <label className="checkbox">
          <input type="checkbox" {...register('hcOn')} />
          <span className="checkbox-text">
            <span>{t('lb.healthCheck')}</span>
            <span className="field-hint">{t('lb.healthCheckHint')}</span>
          </span>
        </label>
        {hcOn ? (
          <div className="grid-2">
            <Field label={t('lb.path')} error={errors.hcPath?.message}>
              <input className="input mono" placeholder={t('lb.pathPlaceholder')} {...register('hcPath')} />
            </Field>
            <Field label={t('lb.expectedStatus')} error={errors.hcStatus?.message} hint={t('lb.expectedStatusHint')}>
              <input className="input mono" inputMode="numeric" {...register('hcStatus', num)} />
            </Field>
            <Field label={t('lb.interval')} error={errors.hcInterval?.message}>
              <input className="input mono" inputMode="numeric" {...register('hcInterval', num)} />
            </Field>
            <Field label={t('lb.timeout')} error={errors.hcTimeout?.message}>
              <input className="input mono" inputMode="numeric" {...register('hcTimeout', num)} />
            </Field>
          </div>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" {...register('stickyOn')} />
          <span className="checkbox-text">
            <span>{t('lb.sticky')}</span>
            <span className="field-hint">{t('lb.stickyHint')}</span>
          </span>
        </label>
        {stickyOn ? (
          <div className="stack-sm">
            <div className="grid-2">
              <Field label={t('lb.cookieName')} optional error={errors.stickyCookie?.message} hint={t('lb.cookieNameHint')}>
                <input className="input mono" placeholder={t('lb.cookieNamePlaceholder')} {...register('stickyCookie')} />
              </Field>
              <Field label={t('lb.sameSite')} error={errors.stickySameSite?.message}>
                <select className="select" {...register('stickySameSite')}>
                  <option value="">{t('lb.notSet')}</option>
                  {sameSiteValues.map(([value, name]) => (
                    <option key={value} value={value}>
                      {name}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
            <label className="checkbox">
              <input type="checkbox" {...register('stickySecure')} />
              <span className="checkbox-text">
                <span>{t('lb.secure')}</span>
              </span>
            </label>
            <label className="checkbox">
              <input type="checkbox" {...register('stickyHttpOnly')} />
              <span className="checkbox-text">
                <span>{t('lb.httpOnly')}</span>
              </span>
            </label>
          </div>
        ) : null}
        <div className="grid-2">
          <Field label={t('lb.dial')} error={errors.toDial?.message} hint={t('lb.dialHint')}>
            <input className="input mono" inputMode="numeric" {...register('toDial', num)} />
          </Field>
          <Field label={t('lb.responseHeader')} error={errors.toResponseHeader?.message} hint={t('lb.responseHeaderHint')}>
            <input className="input mono" inputMode="numeric" {...register('toResponseHeader', num)} />
          </Field>
          <Field label={t('lb.idle')} error={errors.toIdle?.message} hint={t('lb.idleHint')}>
            <input className="input mono" inputMode="numeric" {...register('toIdle', num)} />
          </Field>
        </div>
      </div>
    </Section>
  );
}
