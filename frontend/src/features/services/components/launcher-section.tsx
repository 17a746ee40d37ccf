import { Field } from '@/components/ui/field';
import { Section, type Sub } from './form-section';

/** How the service shows on the portal's launcher, to the people its people protection admits. */
export function LauncherSection({ register, errors }: Sub) {
  return (
    <Section title="Launcher" description="People see the services they may open on the sign-in portal. Only services protected by people and groups are listed.">
      <div className="stack">
        <label className="checkbox">
          <input type="checkbox" {...register('launcherHidden')} />
          <span className="checkbox-text">
            <span>Hide from the launcher</span>
          </span>
        </label>
        <Field label="Description" optional error={errors.launcherDescription?.message}>
          <input className="input" placeholder="Family photos" {...register('launcherDescription')} />
        </Field>
        <div className="grid-2">
          <Field label="Icon" optional error={errors.launcherIcon?.message} hint="An https URL of an image, or the name of a built-in icon.">
            <input className="input mono" placeholder="https://example.com/icon.png" {...register('launcherIcon')} />
          </Field>
          <Field label="Group" optional error={errors.launcherGroup?.message}>
            <input className="input" placeholder="Media" {...register('launcherGroup')} />
          </Field>
          <Field label="Order" error={errors.launcherOrder?.message} hint="Smaller first within a group.">
            <input className="input mono" inputMode="numeric" {...register('launcherOrder', { valueAsNumber: true })} />
          </Field>
        </div>
      </div>
    </Section>
  );
}
