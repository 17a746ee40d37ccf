import { apiRules } from './api-rules';
import type { Hsts } from './api-types';
import i18n from '@/lib/i18n';

/** The limits the server applies, as the API description states them (generated). */
const { maxAge: HSTS_MAX_AGE, preloadMinAge: HSTS_PRELOAD_MIN_AGE } = apiRules.hsts;

/** The form fields of an HSTS policy, shared by the domain and service forms. */
export type HstsFields = { hstsMaxAge: number; hstsIncludeSubdomains: boolean; hstsPreload: boolean };

/** Problems with an HSTS policy, keyed by form field, worded as the server words them. */
export function hstsIssues(v: HstsFields): { path: keyof HstsFields; message: string }[] {
  const out: { path: keyof HstsFields; message: string }[] = [];
  if (!Number.isInteger(v.hstsMaxAge) || v.hstsMaxAge < 1 || v.hstsMaxAge > HSTS_MAX_AGE) {
    out.push({ path: 'hstsMaxAge', message: i18n.t('hsts.maxAge', { max: HSTS_MAX_AGE }) });
    return out;
  }
  if (v.hstsPreload && (!v.hstsIncludeSubdomains || v.hstsMaxAge < HSTS_PRELOAD_MIN_AGE))
    out.push({ path: 'hstsPreload', message: i18n.t('hsts.preload', { min: HSTS_PRELOAD_MIN_AGE }) });
  return out;
}

export function hstsToFields(h: Hsts | null | undefined): HstsFields {
  return { hstsMaxAge: h && h.maxAge > 0 ? h.maxAge : HSTS_PRELOAD_MIN_AGE, hstsIncludeSubdomains: h?.includeSubdomains ?? false, hstsPreload: h?.preload ?? false };
}

export function fieldsToHsts(v: HstsFields): Hsts {
  return { maxAge: v.hstsMaxAge, includeSubdomains: v.hstsIncludeSubdomains, preload: v.hstsPreload };
}

/** Server paths `https.redirect` and `https.hsts.*` → the flat form fields. */
export function mapHttpsPath(path: string): string | null {
  if (path === 'https.redirect') return 'httpsRedirect';
  const m = /^https\.hsts\.(maxAge|includeSubdomains|preload)$/.exec(path);
  if (m) return { maxAge: 'hstsMaxAge', includeSubdomains: 'hstsIncludeSubdomains', preload: 'hstsPreload' }[m[1] as 'maxAge'];
  if (path === 'https.hsts' || path === 'https') return 'hstsMaxAge';
  return null;
}

export function describeHsts(h: Hsts): string {
  if (h.maxAge <= 0) return 'off';
  return `max-age ${h.maxAge}s${h.includeSubdomains ? ', subdomains' : ''}${h.preload ? ', preload' : ''}`;
}
