import { z } from 'zod';
import type { ProtectionSettings } from '@/lib/api-types';
import i18n from '@/lib/i18n';
import { userEntryError } from './user-entry';

/** A form message in the current language, looked up when the check runs. */
const msg = (key: 'pickCredentialSet' | 'invalidUser' | 'max100' | 'headerName' | 'emailsRequired') => ({
  error: () => i18n.t(`forward-auth:schema.${key}`),
});

const headerName = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/**
 * The Security tab's form: one object per protection, each checked by its own schema. A new
 * protection adds its schema here, its wire mapping below, and its section to `protection-sections.tsx`.
 */
export const protectionSchema = z.object({
  basicAuth: z
    .object({ enabled: z.boolean(), credentialSetId: z.string() })
    .refine((v) => !v.enabled || v.credentialSetId !== '', { ...msg('pickCredentialSet'), path: ['credentialSetId'] }),
  sso: z.object({
    enabled: z.boolean(),
    users: z.array(z.string()).refine((list) => list.every((u) => !userEntryError(u)), msg('invalidUser')),
    groups: z.array(z.string()),
  }),
  sharedLinks: z.object({ enabled: z.boolean() }),
  tokens: z.object({
    enabled: z.boolean(),
    header: z
      .string()
      .trim()
      .max(100, msg('max100'))
      .refine((h) => h === '' || headerName.test(h), msg('headerName')),
  }),
  emailCode: z
    .object({ enabled: z.boolean(), allowedEmails: z.array(z.string()), sessionSeconds: z.number() })
    .refine((v) => !v.enabled || v.allowedEmails.length > 0, { ...msg('emailsRequired'), path: ['allowedEmails'] }),
  people: z.object({
    enabled: z.boolean(),
    people: z.array(z.string()),
    groups: z.array(z.string()),
    secondFactor: z.boolean(),
    maxAgeSeconds: z.number().int().min(0).max(31536000),
  }),
});

export type ProtectionValues = z.infer<typeof protectionSchema>;

/** Stored protections → form values (a protection never set is a section switched off). */
export function protectionToForm(p: ProtectionSettings): ProtectionValues {
  return {
    basicAuth: { enabled: p.basicAuth?.enabled ?? false, credentialSetId: p.basicAuth?.credentialSetId ?? '' },
    sso: { enabled: p.sso?.enabled ?? false, users: [...(p.sso?.users ?? [])], groups: [...(p.sso?.groups ?? [])] },
    sharedLinks: { enabled: p.sharedLinks?.enabled ?? false },
    tokens: { enabled: p.tokens?.enabled ?? false, header: p.tokens?.header ?? '' },
    emailCode: {
      enabled: p.emailCode?.enabled ?? false,
      allowedEmails: [...(p.emailCode?.allowedEmails ?? [])],
      sessionSeconds: p.emailCode?.sessionSeconds || 24 * 3600,
    },
    people: {
      enabled: p.people?.enabled ?? false,
      people: [...(p.people?.people ?? [])],
      groups: [...(p.people?.groups ?? [])],
      secondFactor: p.people?.secondFactor ?? false,
      maxAgeSeconds: p.people?.maxAgeSeconds ?? 0,
    },
  };
}

/** Form values → the body of PUT /api/services/{id}/protection. */
export function formToProtection(v: ProtectionValues): ProtectionSettings {
  return {
    basicAuth: { enabled: v.basicAuth.enabled, credentialSetId: v.basicAuth.credentialSetId },
    sso: { enabled: v.sso.enabled, users: v.sso.users, groups: v.sso.groups },
    sharedLinks: { enabled: v.sharedLinks.enabled },
    tokens: { enabled: v.tokens.enabled, header: v.tokens.header.trim() },
    emailCode: { enabled: v.emailCode.enabled, allowedEmails: v.emailCode.allowedEmails, sessionSeconds: v.emailCode.sessionSeconds },
    people: { enabled: v.people.enabled, people: v.people.people, groups: v.people.groups, secondFactor: v.people.secondFactor, maxAgeSeconds: v.people.maxAgeSeconds },
  };
}

/**
 * A server field path (`sso.users.1`, after toFormPath) → the form field that shows it: list
 * entries are shown on their list.
 */
export function mapProtectionPath(path: string): string {
  const m = /^(sso\.(?:users|groups)|emailCode\.allowedEmails|people\.(?:people|groups))\.\d+$/.exec(path);
  return m ? m[1]! : path;
}

const knownPaths = new Set(['basicAuth.credentialSetId', 'basicAuth.enabled', 'sso.users', 'sso.groups', 'sso.enabled', 'sharedLinks.enabled', 'tokens.enabled', 'tokens.header', 'emailCode.enabled', 'emailCode.allowedEmails', 'emailCode.sessionSeconds', 'people.enabled', 'people.people', 'people.groups', 'people.secondFactor', 'people.maxAgeSeconds']);

export function isKnownProtectionPath(path: string): boolean {
  return knownPaths.has(path);
}
