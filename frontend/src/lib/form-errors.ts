import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from './api-client';

/** `targets[0].port` → `targets.0.port` (react-hook-form's path syntax). */
export function toFormPath(field: string): string {
  return field.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
}

const words: Record<string, string> = { email: 'e-mail', ip: 'IP', url: 'URL', dns: 'DNS', id: 'ID', tls: 'TLS', ttl: 'TTL' };

function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/\s+/)
    .map((w) => words[w.toLowerCase()] ?? (/^[A-Z]+$/.test(w) ? w : w.toLowerCase()));
}

/**
 * A readable label for a field path with no field on the page:
 * `resolvers[0].email` → "Resolver 1 e-mail", `targets.1.port` → "Target 2 port".
 */
export function fieldLabel(path: string): string {
  const parts = toFormPath(path).split('.').filter(Boolean);
  const out: string[] = [];
  parts.forEach((p, i) => {
    if (/^\d+$/.test(p)) {
      out.push(String(Number(p) + 1));
      return;
    }
    const w = wordsOf(p);
    // A list followed by an index names one item: "resolvers 0" → "resolver 1".
    const last = w.length - 1;
    if (/^\d+$/.test(parts[i + 1] ?? '') && last >= 0) w[last] = (w[last] ?? '').replace(/ies$/, 'y').replace(/([^s])s$/, '$1');
    out.push(...w);
  });
  const s = out.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "2 fields need attention". */
export function fieldsNeedAttention(n: number): string {
  return n === 1 ? '1 field needs attention' : `${n} fields need attention`;
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
      unmatched.push(f.field ? `${fieldLabel(path ?? f.field)}: ${f.message}` : f.message);
      continue;
    }
    setError(path as Path<T>, { type: 'server', message: f.message }, { shouldFocus: !focused });
    focused = true;
  }
  if (error.fields.length === 0 && error.code === 'conflict') unmatched.push(error.message);
  // Every field error is on its field: the page says it all, no toast repeats it.
  if (error.fields.length > 0 && unmatched.length === 0) error.fieldsShown = true;
  return unmatched;
}
