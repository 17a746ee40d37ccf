import { z } from 'zod';
import { newPasswordSchema } from '@/lib/password-schema';

const usernameSchema = z
  .string()
  .trim()
  .min(1, 'Enter a username')
  .max(64, 'At most 64 characters')
  .regex(/^[A-Za-z0-9._@-]+$/, 'Use letters, digits and . _ @ - only');

export const loginSchema = z.object({
  username: z.string().trim().min(1, 'Enter your username'),
  password: z.string().min(1, 'Enter your password'),
});

export const setupSchema = z
  .object({
    username: usernameSchema,
    password: newPasswordSchema,
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'Passwords do not match' });
