import { useTranslation } from 'react-i18next';
import { formatDuration } from '@/lib/format';
import i18n from '@/lib/i18n';

/**
 * The maximum sign-in ages offered wherever a portal sign-in may be too old (the people
 * protection, an app's settings): 0 is no limit, the others a count of hours or days.
 */
export const signInAges = [
  { value: 0 },
  { value: 3600, unit: 'hours', count: 1 },
  { value: 12 * 3600, unit: 'hours', count: 12 },
  { value: 24 * 3600, unit: 'days', count: 1 },
  { value: 7 * 24 * 3600, unit: 'days', count: 7 },
] as const;

/** A maximum sign-in age in words: "No limit", "12 hours"; a value set through the API alone, compactly ("90m"). */
export function signInAgeText(seconds: number): string {
  const a = signInAges.find((x) => x.value === seconds);
  if (!a) return formatDuration(seconds);
  return 'unit' in a ? i18n.t(`components:signInAge.${a.unit}`, { count: a.count }) : i18n.t('components:signInAge.noLimit');
}

/**
 * The <option>s of a maximum sign-in age <select>, in the person's language. `current` keeps a
 * value set through the API that is not among the choices, so opening the form does not change it.
 */
export function SignInAgeOptions({ current }: { current?: number }) {
  // Subscribes to language changes; the words come from signInAgeText.
  useTranslation('components');
  const values: number[] = signInAges.map((a) => a.value);
  if (current !== undefined && Number.isFinite(current) && current > 0 && !values.includes(current)) values.push(current);
  return values.map((v) => (
    <option key={v} value={v}>
      {signInAgeText(v)}
    </option>
  ));
}
