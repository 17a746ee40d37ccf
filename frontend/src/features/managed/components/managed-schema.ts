import { z } from 'zod';

const name = z.string().trim().min(1, 'Enter a name').regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, - and _ only');

export const managedSchema = z
  .object({
    logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']),
    entrypoints: z.array(
      z.object({
        name,
        port: z.number({ message: 'Enter a port' }).int().min(1, 'Must be between 1 and 65535').max(65535, 'Must be between 1 and 65535'),
        tls: z.boolean(),
        resolver: z.string(),
        redirectTo: z.string(),
      }),
    ),
    resolvers: z.array(
      z.object({
        name,
        email: z.string().trim().refine((v) => v === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'Enter an e-mail address, or leave it empty'),
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
    });
    rNames.forEach((n, i) => {
      if (rNames.indexOf(n) !== i) ctx.addIssue({ code: 'custom', path: ['resolvers', i, 'name'], message: 'Duplicate name' });
    });
    v.resolvers.forEach((r, i) => {
      if (r.challenge === 'http' && !epNames.includes(r.httpEntrypoint))
        ctx.addIssue({ code: 'custom', path: ['resolvers', i, 'httpEntrypoint'], message: 'Pick the port-80 entrypoint' });
      if (r.challenge === 'dns' && !r.dnsProvider) ctx.addIssue({ code: 'custom', path: ['resolvers', i, 'dnsProvider'], message: 'Pick a DNS provider' });
    });
  });

export type ManagedValues = z.infer<typeof managedSchema>;
