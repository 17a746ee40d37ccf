import { Controller, useWatch } from 'react-hook-form';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import { Section, type Sub } from './form-section';

/**
 * Proxy to the targets, or redirect every request to a URL (the targets are
 * kept); either can be switched to the maintenance page.
 */
export function KindSection({ control, register, errors }: Sub) {
  const kind = useWatch({ control, name: 'kind' });
  const maintenance = useWatch({ control, name: 'maintenance' });
  return (
    <Section title="Kind" description="Proxy requests to the targets, or answer every request with a redirect to another URL. Switching keeps the other kind's settings.">
      <div className="stack">
        <div className="radio-cards" role="radiogroup" aria-label="Kind">
          <label className="radio-card">
            <input type="radio" value="proxy" {...register('kind')} />
            <span>Proxy to targets</span>
          </label>
          <label className="radio-card">
            <input type="radio" value="redirect" {...register('kind')} />
            <span>Redirect</span>
          </label>
        </div>
        {kind === 'redirect' ? (
          <>
            <Field label="Redirect to" error={errors.redirectUrl?.message} hint="A full URL, e.g. https://new.example.org/">
              <input className="input mono" placeholder="https://new.example.org/" autoCapitalize="off" spellCheck={false} {...register('redirectUrl')} />
            </Field>
            <Field label="Redirect type">
              <select
                className="select"
                style={{ maxWidth: 420 }}
                {...register('redirectPermanent', { setValueAs: (v: string | boolean) => v === true || v === 'true' })}
              >
                <option value="true">Permanent: 301 (308 for methods other than GET)</option>
                <option value="false">Temporary: 302 (307 for methods other than GET)</option>
              </select>
            </Field>
            <label className="checkbox">
              <input type="checkbox" {...register('redirectKeepPath')} />
              <span className="checkbox-text">
                <span>Keep the path and query</span>
                <span className="field-hint">/docs?page=2 goes to the URL followed by /docs?page=2; off, every request goes to the URL as written.</span>
              </span>
            </label>
          </>
        ) : null}
        <div className="field">
          <span className="field-label">Maintenance</span>
          <Controller
            control={control}
            name="maintenance"
            render={({ field }) => (
              <Switch
                checked={field.value}
                onChange={(e) => field.onChange(e.target.checked)}
                label={field.value ? 'On: visitors see the maintenance page' : 'Off'}
              />
            )}
          />
          <div className="field-hint">While on, the panel answers every request with a maintenance page (503) instead of the {kind === 'redirect' ? 'redirect' : 'upstream'}. Everything else stays as set.</div>
        </div>
        {maintenance ? (
          <Field label="Maintenance message" optional error={errors.maintenanceMessage?.message} hint="Plain text; line breaks are kept. Empty shows a general message.">
            <textarea className="input" rows={3} placeholder="We are upgrading the shop. Back at noon." {...register('maintenanceMessage')} />
          </Field>
        ) : null}
      </div>
    </Section>
  );
}
