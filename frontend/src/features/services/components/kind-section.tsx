import { useWatch } from 'react-hook-form';
import { Field } from '@/components/ui/field';
import { Section, type Sub } from './form-section';

/** Proxy to the targets, or redirect every request to a URL (the targets are kept). */
export function KindSection({ control, register, errors }: Sub) {
  const kind = useWatch({ control, name: 'kind' });
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
      </div>
    </Section>
  );
}
