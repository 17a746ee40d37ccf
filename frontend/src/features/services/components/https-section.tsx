import { useWatch } from 'react-hook-form';
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
  const domainId = useWatch({ control, name: 'domainId' });
  const hstsMode = useWatch({ control, name: 'hstsMode' });
  const domain = domains.find((d) => d.id === domainId);
  const inherited = domain?.https;
  const redirectDefault = inherited?.redirect ? 'on' : 'off';
  const hstsDefault = inherited ? describeHsts(inherited.hsts) : 'off';
  const from = domain ? `from ${domain.domain}` : 'no domain';
  return (
    <Section title="HTTPS" description="Send plain HTTP visitors to HTTPS, and tell browsers to use HTTPS only (HSTS). Both follow the domain's defaults unless set here.">
      <div className="stack">
        {warnings.map((w) => (
          <Alert key={w.code} tone="warning" title={w.code === 'default_certificate' ? 'Default certificate' : 'HTTPS'}>
            {w.message}
          </Alert>
        ))}
        <div className="grid-2">
          <Field label="Redirect HTTP to HTTPS" error={errors.httpsRedirect?.message} hint="Plain-HTTP visitors are sent to HTTPS. A service on TLS entrypoints only is redirected from the web entrypoint.">
            <select className="select" {...register('httpsRedirect')}>
              <option value="inherit">
                Inherit ({from}: {redirectDefault})
              </option>
              <option value="on">On</option>
              <option value="off">Off</option>
            </select>
          </Field>
          <Field label="HSTS" hint="Strict-Transport-Security on HTTPS answers.">
            <select className="select" {...register('hstsMode')}>
              <option value="inherit">
                Inherit ({from}: {hstsDefault})
              </option>
              <option value="on">On</option>
              <option value="off">Off</option>
            </select>
          </Field>
        </div>
        {hstsMode === 'on' ? (
          <div className="stack-sm">
            <Field label="Max age (seconds)" error={errors.hstsMaxAge?.message} hint="31536000 is one year; browsers remember the policy this long.">
              <input className="input mono" style={{ maxWidth: 200 }} inputMode="numeric" {...register('hstsMaxAge', { valueAsNumber: true })} />
            </Field>
            <label className="checkbox">
              <input type="checkbox" {...register('hstsIncludeSubdomains')} />
              <span className="checkbox-text">
                <span>Include subdomains</span>
                <span className="field-hint">Every subdomain of these hosts must serve HTTPS too.</span>
              </span>
            </label>
            <label className="checkbox">
              <input type="checkbox" aria-describedby={errors.hstsPreload ? 'hsts-preload-err' : undefined} {...register('hstsPreload')} />
              <span className="checkbox-text">
                <span>Preload</span>
                <span className="field-hint">Ask to be on browsers' built-in HTTPS-only list (hard to undo).</span>
              </span>
            </label>
            {errors.hstsPreload?.message ? <FieldErrorText id="hsts-preload-err" message={errors.hstsPreload.message} /> : null}
          </div>
        ) : null}
      </div>
    </Section>
  );
}
