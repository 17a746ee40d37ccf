import { z } from 'zod';
import { apiRules } from '@/lib/api-rules';
import i18n from '@/lib/i18n';
import type managedEn from '@/locales/en/managed.json';

type SchemaKey = keyof (typeof managedEn)['schema'];
/** A form message in the current language, looked up when the check runs. */
const tr = (key: SchemaKey, values?: Record<string, string | number>) => i18n.t(`managed:schema.${key}`, values ?? {});
const msg = (key: SchemaKey) => ({ error: () => tr(key) });

const name = z
  .string()
  .trim()
  .min(1, msg('enterName'))
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/, msg('nameChars'));
const ipLike = /^([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-fA-F:]+)$/;

export const managedSchema = z
  .object({
    logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']),
    entrypoints: z.array(
      z.object({
        name: name.refine((v) => v !== 'traefik', msg('traefikReserved')),
        host: z.string().trim().refine((v) => v === '' || ipLike.test(v), msg('hostIp')),
        port: z.number(msg('enterPort')).int().min(1, msg('portRange')).max(65535, msg('portRange')),
        tls: z.boolean(),
        resolver: z.string(),
        redirectTo: z.string(),
        // '' is HTTP; tcp and udp entrypoints carry TCP and UDP services.
        protocol: z.enum(['', 'tcp', 'udp']),
      }),
    ),
    resolvers: z.array(
      z.object({
        name,
        // Empty is allowed: the resolver stays inactive until it has an address.
        email: z.string().trim().regex(/^([^\s@]+@[^\s@]+\.[^\s@]+)?$/, msg('email')),
        challenge: z.enum(['tlsalpn', 'http', 'dns']),
        httpEntrypoint: z.string(),
        dnsProvider: z.string(),
        dnsResolvers: z.array(z.string()),
        propagationDelaySeconds: z.number(msg('enterNumber')).int().min(0, msg('nonNegative')),
      }),
    ),
  })
  .superRefine((v, ctx) => {
    const epNames = v.entrypoints.map((e) => e.name.trim());
    const rNames = v.resolvers.map((r) => r.name.trim());
    epNames.forEach((n, i) => {
      if (epNames.indexOf(n) !== i) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'name'], message: tr('duplicateName') });
    });
    // A UDP entrypoint may share its port number with a TCP one.
    const ports = v.entrypoints.map((e) => `${e.port}/${e.protocol === 'udp' ? 'udp' : 'tcp'}`);
    ports.forEach((p, i) => {
      if (ports.indexOf(p) !== i) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'port'], message: tr('portUsed') });
    });
    v.entrypoints.forEach((e, i) => {
      if (e.redirectTo && !epNames.includes(e.redirectTo)) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'redirectTo'], message: tr('unknownEntrypoint') });
      if (e.redirectTo === e.name) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'redirectTo'], message: tr('redirectSelf') });
      if (e.resolver && !rNames.includes(e.resolver)) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'resolver'], message: tr('unknownResolver') });
      if (e.protocol && e.tls) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'tls'], message: tr('streamNoTls') });
      if (e.protocol && e.redirectTo) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'redirectTo'], message: tr('streamNoRedirect') });
      if (e.resolver && !e.tls) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'resolver'], message: tr('resolverNeedsTls') });
      const target = v.entrypoints.find((x) => x.name === e.redirectTo);
      if (e.redirectTo && target?.redirectTo) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'redirectTo'], message: tr('redirectsAgain', { name: e.redirectTo }) });
    });
    rNames.forEach((n, i) => {
      if (rNames.indexOf(n) !== i) ctx.addIssue({ code: 'custom', path: ['resolvers', i, 'name'], message: tr('duplicateName') });
    });
    v.resolvers.forEach((r, i) => {
      if (r.challenge === 'http' && !v.entrypoints.some((e) => e.name === r.httpEntrypoint && !e.tls))
        ctx.addIssue({ code: 'custom', path: ['resolvers', i, 'httpEntrypoint'], message: tr('httpEntrypoint') });
      if (r.challenge === 'dns' && r.propagationDelaySeconds > 3600)
        ctx.addIssue({ code: 'custom', path: ['resolvers', i, 'propagationDelaySeconds'], message: tr('max3600') });
      if (r.challenge === 'dns' && !r.dnsProvider) ctx.addIssue({ code: 'custom', path: ['resolvers', i, 'dnsProvider'], message: tr('dnsProvider') });
    });
  });

export type ManagedValues = z.infer<typeof managedSchema>;

const credential = apiRules.credentialName;
const reservedNames: readonly string[] = credential.reservedNames;

/** Why the server would refuse a credential name (the document's CredentialName), or null. */
export function credentialNameIssue(name: string): string | null {
  if (!name) return tr('variableName');
  if (name.length > credential.maxLength) return tr('variableMax', { max: credential.maxLength });
  if (!new RegExp(credential.pattern).test(name)) return tr('variableChars');
  if (reservedNames.includes(name)) return tr('variableReserved', { name });
  const prefix = new RegExp(credential.reservedPattern).exec(name);
  if (prefix) return tr('variablePrefix', { prefix: prefix[1] ?? prefix[0] });
  return null;
}
