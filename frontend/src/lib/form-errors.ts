import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from './api-client';

/** `targets[0].port` → `targets.0.port` (react-hook-form's path syntax). */
export function toFormPath(field: string): string {
  return field.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
}

/**
 * Puts the envelope's `fields` onto the form. `map` translates server paths whose form
 * representation differs (e.g. headers are an object on the wire, a list in the form).
 * Returns the messages that matched no field so the caller can show them elsewhere.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  opts: { known?: (path: string) => boolean; map?: (path: string) => string | null } = {},
): string[] {
  if (!isApiError(error)) return [];
  const unmatched: string[] = [];
  let focused = false;
  for (const f of error.fields) {
    let path: string | null = toFormPath(f.field);
    if (opts.map) path = opts.map(path);
    if (!path || (opts.known && !opts.known(path))) {
      unmatched.push(f.field ? `${f.field}: ${f.message}` : f.message);
      continue;
    }
    setError(path as Path<T>, { type: 'server', message: f.message }, { shouldFocus: !focused });
    focused = true;
  }
  if (error.fields.length === 0 && error.code === 'conflict') unmatched.push(error.message);
  return unmatched;
}
