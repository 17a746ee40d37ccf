import { useTranslation } from 'react-i18next';
import { durationUnits } from '@/lib/format';

/** The <option>s of a duration unit <select>: minutes, hours, days, in the person's language. */
export function DurationUnitOptions() {
  const { t } = useTranslation();
  return durationUnits.map((u) => (
    <option key={u.seconds} value={u.seconds}>
      {t(u.label)}
    </option>
  ));
}
