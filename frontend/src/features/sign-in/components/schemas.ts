import { z } from 'zod';
import i18n from '@/lib/i18n';
import { newPasswordSchema } from '@/lib/password-schema';

const usernameSchema = z
  .string()
  .trim()
  .min(1, { error: () => i18n.t('sign-in:validation.usernameRequired') })
  .max(64, { error: () => i18n.t('sign-in:validation.usernameTooLong') })
  .regex(/^[A-Za-z0-9._@-]+$/, { error: () => i18n.t('sign-in:validation.usernameChars') });

export const loginSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, { error: () => i18n.t('sign-in:validation.enterUsername') }),
  password: z.string().min(1, { error: () => i18n.t('sign-in:validation.enterPassword') }),
});

export const setupSchema = z
  .object({
    username: usernameSchema,
    password: newPasswordSchema,
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], error: () => i18n.t('sign-in:validation.mismatch') });
