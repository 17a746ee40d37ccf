import { z } from 'zod';
import { apiRules } from '@/lib/api-rules';

const name = z
  .string()
  .trim()
  .min(1, 'Enter a name')
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/, 'Letters, digits, - and _ (start with a letter or digit)');
const ipLike = /^([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-fA-F:]+)$/;

export const managedSchema = z
  .object({
    logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']),
    entrypoints: z.array(
      z.object({
        name: name.refine((v) => v !== 'traefik', 'The name traefik is reserved'),
        host: z.string().trim().refine((v) => v === '' || ipLike.test(v), 'Empty (every interface) or an IP address'),
        port: z.number({ message: 'Enter a port' }).int().min(1, 'Must be between 1 and 65535').max(65535, 'Must be between 1 and 65535'),
        tls: z.boolean(),
        resolver: z.string(),
        redirectTo: z.string(),
      }),
    ),
    resolvers: z.array(
      z.object({
        name,
        // Empty is allowed: the resolver stays inactive until it has an address.
        email: z.string().trim().regex(/^([^\s@]+@[^\s@]+\.[^\s@]+)?$/, 'Enter an e-mail address such as you@your-domain.com'),
        challenge: z.enum(['tlsalpn', 'http', 'dns']),
        httpEntrypoint: z.string(),
        dnsProvider: z.string(),
        dnsResolvers: z.array(z.string()),
        propagationDelaySeconds: z.number({ message: 'Enter a number' }).int().min(0, 'Must be 0 or more'),
      }),
    ),
  })
  .superRefine((v, ctx) => {
    const epNames = v.entrypoints.map((e) => e.name.trim());
    const rNames = v.resolvers.map((r) => r.name.trim());
    epNames.forEach((n, i) => {
      if (epNames.indexOf(n) !== i) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'name'], message: 'Duplicate name' });
    });
    const ports = v.entrypoints.map((e) => e.port);
    ports.forEach((p, i) => {
      if (ports.indexOf(p) !== i) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'port'], message: 'Port already used' });
    });
    v.entrypoints.forEach((e, i) => {
      if (e.redirectTo && !epNames.includes(e.redirectTo)) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'redirectTo'], message: 'Unknown entrypoint' });
      if (e.redirectTo === e.name) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'redirectTo'], message: 'Cannot redirect to itself' });
      if (e.resolver && !rNames.includes(e.resolver)) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'resolver'], message: 'Unknown resolver' });
      if (e.resolver && !e.tls) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'resolver'], message: 'A resolver needs TLS on this entrypoint' });
      const target = v.entrypoints.find((x) => x.name === e.redirectTo);
      if (e.redirectTo && target?.redirectTo) ctx.addIssue({ code: 'custom', path: ['entrypoints', i, 'redirectTo'], message: `${e.redirectTo} redirects again` });
    });
    rNames.forEach((n, i) => {
      if (rNames.indexOf(n) !== i) ctx.addIssue({ code: 'custom', path: ['resolvers', i, 'name'], message: 'Duplicate name' });
    });
    v.resolvers.forEach((r, i) => {
      if (r.challenge === 'http' && !v.entrypoints.some((e) => e.name === r.httpEntrypoint && !e.tls))
        ctx.addIssue({ code: 'custom', path: ['resolvers', i, 'httpEntrypoint'], message: 'Pick a non-TLS entrypoint (usually web on port 80)' });
      if (r.challenge === 'dns' && r.propagationDelaySeconds > 3600)
        ctx.addIssue({ code: 'custom', path: ['resolvers', i, 'propagationDelaySeconds'], message: 'At most 3600 seconds' });
      if (r.challenge === 'dns' && !r.dnsProvider) ctx.addIssue({ code: 'custom', path: ['resolvers', i, 'dnsProvider'], message: 'Pick a DNS provider' });
    });
  });

export type ManagedValues = z.infer<typeof managedSchema>;

const credential = apiRules.credentialName;
const reservedNames: readonly string[] = credential.reservedNames;

/** Why the server would refuse a credential name (the document's CredentialName), or null. */
export function credentialNameIssue(name: string): string | null {
  if (!name) return 'Enter a variable name';
  if (name.length > credential.maxLength) return `At most ${credential.maxLength} characters`;
  if (!new RegExp(credential.pattern).test(name)) return 'Use A-Z, 0-9 and _, not starting with a digit';
  if (reservedNames.includes(name)) return `${name} is reserved`;
  const prefix = new RegExp(credential.reservedPattern).exec(name);
  if (prefix) return `Names starting with ${prefix[1] ?? prefix[0]} are reserved`;
  return null;
}
