import { z } from 'zod';
import i18n from '@/lib/i18n';

/** A new password: the same bounds the server checks (admin.ValidateCredentials). */
export const newPasswordSchema = z
  .string()
  .min(10, { error: () => i18n.t('password.tooShort', { min: 10 }) })
  .max(256, { error: () => i18n.t('password.tooLong', { max: 256 }) });

/** The hint under a new password's field, in the current language. */
export function newPasswordHint(): string {
  return i18n.t('password.hint', { min: 10 });
}
