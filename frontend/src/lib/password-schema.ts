import { z } from 'zod';

/** A new administrator password: the same bounds the server checks (admin.ValidateCredentials). */
export const newPasswordSchema = z.string().min(10, 'At least 10 characters').max(256, 'At most 256 characters');

export const newPasswordHint = 'At least 10 characters.';
