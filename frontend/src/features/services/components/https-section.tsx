import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Field, FieldErrorText } from '@/components/ui/field';
import type { Domain } from '@/lib/api-types';
import { describeHsts } from '@/lib/hsts';
import { Section, type Sub } from './form-section';

export type ServiceWarning = { code: string; message: string };

/**
 * Redirect to HTTPS and HSTS: each inherits the domain's default unless set
 * here. Warnings are the server's, from the configuration preview.
 */
export function HttpsSection({ control, register, errors, domains, warnings }: Sub & { domains: Domain[]; warnings: ServiceWarning[] }) {
  const { t } = useTranslation('services');
  const domainId = useWatch({ control, name: 'domainId' });
  const hstsMode = useWatch({ control, name: 'hstsMode' });
  const domain = domains.find((d) => d.id === domainId);
  const inherited = domain?.https;
  const redirectDefault = inherited?.redirect ? t('https.on') : t('https.off');
  const hstsDefault = inherited ? describeHsts(inherited.hsts) : t('https.off');
  const inherit = (value: string) =>
    domain ? t('https.inheritFrom', { domain: domain.domain, value }) : t('https.inheritNoDomain', { value });
  return (
    <Section title={t('https.title')} description={t('https.description')}>
      <div className="stack">
        {warnings.map((w) => (
          <Alert key={w.code} tone="warning" title={w.code === 'default_certificate' ? t('warnings.defaultCertificate') : t('warnings.https')}>
            {w.message}
          </Alert>
        ))}
        <div className="grid-2">
          <Field label={t('https.redirect')} error={errors.httpsRedirect?.message} hint={t('https.redirectHint')}>
            <select className="select" {...register('httpsRedirect')}>
              <option value="inherit">{inherit(redirectDefault)}</option>
              <option value="on">{t('https.onOption')}</option>
              <option value="off">{t('https.offOption')}</option>
            </select>
          </Field>
          <Field label={t('https.hsts')} hint={t('https.hstsHint')}>
            <select className="select" {...register('hstsMode')}>
              <option value="inherit">{inherit(hstsDefault)}</option>
              <option value="on">{t('https.onOption')}</option>
              <option value="off">{t('https.offOption')}</option>
            </select>
          </Field>
        </div>
        {hstsMode === 'on' ? (
          <div className="stack-sm">
            <Field label={t('https.maxAge')} error={errors.hstsMaxAge?.message} hint={t('https.maxAgeHint')}>
              <input className="input mono" style={{ maxWidth: 200 }} inputMode="numeric" {...register('hstsMaxAge', { valueAsNumber: true })} />
            </Field>
            <label className="checkbox">
              <input type="checkbox" {...register('hstsIncludeSubdomains')} />
              <span className="checkbox-text">
                <span>{t('https.includeSubdomains')}</span>
                <span className="field-hint">{t('https.includeSubdomainsHint')}</span>
              </span>
            </label>
            <label className="checkbox">
              <input type="checkbox" aria-describedby={errors.hstsPreload ? 'hsts-preload-err' : undefined} {...register('hstsPreload')} />
              <span className="checkbox-text">
                <span>{t('https.preload')}</span>
                <span className="field-hint">{t('https.preloadHint')}</span>
              </span>
            </label>
            {errors.hstsPreload?.message ? <FieldErrorText id="hsts-preload-err" message={errors.hstsPreload.message} /> : null}
          </div>
        ) : null}
      </div>
    </Section>
  );
}
