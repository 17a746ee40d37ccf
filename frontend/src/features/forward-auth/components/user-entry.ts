import i18n from '@/lib/i18n';

/**
 * Checks one entry of a service's SSO allow-list. Each kind is compared with
 * one claim on the server: sub:<subject> with sub, an e-mail address with the
 * verified email, any other word with preferred_username or sub.
 */
export function userEntryError(v: string): string | null {
  if (v.startsWith('sub:')) return /^sub:\S+$/.test(v) ? null : i18n.t('forward-auth:userEntry.subject');
  return /^\S+@\S+$/.test(v) || /^[\w.-]+$/.test(v) ? null : i18n.t('forward-auth:userEntry.invalid');
}
