import { useWatch } from 'react-hook-form';
import { Field } from '@/components/ui/field';
import { Section, type Sub } from './form-section';

/** Traefik's health check, sticky sessions and upstream timeouts. */
export function LoadBalancingSection({ control, register, errors }: Sub) {
  const hcOn = useWatch({ control, name: 'hcOn' });
  const stickyOn = useWatch({ control, name: 'stickyOn' });
  const num = { valueAsNumber: true } as const;
  return (
    <Section title="Load balancing" description="Traefik checks each target and stops sending to those that fail; a cookie can keep a visitor on one target.">
      <div className="stack">
        <label className="checkbox">
          <input type="checkbox" {...register('hcOn')} />
          <span className="checkbox-text">
            <span>Health check</span>
            <span className="field-hint">Traefik requests the path on every target; a target that fails is marked down until it answers again.</span>
          </span>
        </label>
        {hcOn ? (
          <div className="grid-2">
            <Field label="Path" error={errors.hcPath?.message}>
              <input className="input mono" placeholder="/health" {...register('hcPath')} />
            </Field>
            <Field label="Expected status" error={errors.hcStatus?.message} hint="0 accepts any 2xx or 3xx.">
              <input className="input mono" inputMode="numeric" {...register('hcStatus', num)} />
            </Field>
            <Field label="Interval (seconds)" error={errors.hcInterval?.message}>
              <input className="input mono" inputMode="numeric" {...register('hcInterval', num)} />
            </Field>
            <Field label="Timeout (seconds)" error={errors.hcTimeout?.message}>
              <input className="input mono" inputMode="numeric" {...register('hcTimeout', num)} />
            </Field>
          </div>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" {...register('stickyOn')} />
          <span className="checkbox-text">
            <span>Sticky sessions</span>
            <span className="field-hint">A cookie keeps each visitor on the target that first answered them.</span>
          </span>
        </label>
        {stickyOn ? (
          <div className="stack-sm">
            <div className="grid-2">
              <Field label="Cookie name" optional error={errors.stickyCookie?.message} hint="Empty lets Traefik generate one.">
                <input className="input mono" placeholder="lb" {...register('stickyCookie')} />
              </Field>
              <Field label="SameSite" error={errors.stickySameSite?.message}>
                <select className="select" {...register('stickySameSite')}>
                  <option value="">Not set</option>
                  <option value="lax">Lax</option>
                  <option value="strict">Strict</option>
                  <option value="none">None</option>
                </select>
              </Field>
            </div>
            <label className="checkbox">
              <input type="checkbox" {...register('stickySecure')} />
              <span className="checkbox-text">
                <span>Secure cookie</span>
              </span>
            </label>
            <label className="checkbox">
              <input type="checkbox" {...register('stickyHttpOnly')} />
              <span className="checkbox-text">
                <span>HttpOnly cookie</span>
              </span>
            </label>
          </div>
        ) : null}
        <div className="grid-2">
          <Field label="Connect timeout (seconds)" error={errors.toDial?.message} hint="0 keeps Traefik's default (30).">
            <input className="input mono" inputMode="numeric" {...register('toDial', num)} />
          </Field>
          <Field label="Response header timeout (seconds)" error={errors.toResponseHeader?.message} hint="0: no limit.">
            <input className="input mono" inputMode="numeric" {...register('toResponseHeader', num)} />
          </Field>
          <Field label="Idle connection timeout (seconds)" error={errors.toIdle?.message} hint="0 keeps Traefik's default (90).">
            <input className="input mono" inputMode="numeric" {...register('toIdle', num)} />
          </Field>
        </div>
      </div>
    </Section>
  );
}
