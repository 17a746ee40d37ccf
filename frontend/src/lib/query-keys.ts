/** Query-key factories. Every key starts with its resource so invalidation can be broad or narrow. */
export const qk = {
  system: () => ['system'] as const,
  me: () => ['me'] as const,
  account: {
    all: () => ['account'] as const,
    sessions: () => ['account', 'sessions'] as const,
  },
  admins: {
    all: () => ['admins'] as const,
    list: () => ['admins', 'list'] as const,
    tokens: () => ['admins', 'tokens'] as const,
  },
  config: () => ['config'] as const,
  sso: () => ['sso'] as const,
  domains: {
    all: () => ['domains'] as const,
    list: () => ['domains', 'list'] as const,
  },
  services: {
    all: () => ['services'] as const,
    list: () => ['services', 'list'] as const,
    detail: (id: string) => ['services', 'detail', id] as const,
    preview: (id: string) => ['services', 'preview', id] as const,
    security: (id: string) => ['services', 'security', id] as const,
    sharedLinks: (id: string) => ['services', 'shared-links', id] as const,
  },
  credentialSets: {
    all: () => ['credential-sets'] as const,
    list: () => ['credential-sets', 'list'] as const,
    detail: (id: string) => ['credential-sets', 'detail', id] as const,
  },
  sessions: { all: () => ['sessions'] as const },
  access: {
    all: () => ['access'] as const,
    service: (id: string) => ['access', 'service', id] as const,
    global: () => ['access', 'global'] as const,
    presets: () => ['access', 'presets'] as const,
    log: (scope: string, filters: Record<string, string>) => ['access', 'log', scope, filters] as const,
  },
  machineTokens: {
    all: () => ['machine-tokens'] as const,
    list: () => ['machine-tokens', 'list'] as const,
  },
  managed: {
    all: () => ['managed'] as const,
    state: () => ['managed', 'state'] as const,
    dnsProviders: () => ['managed', 'dns-providers'] as const,
  },
  proxy: {
    all: () => ['proxy'] as const,
    entrypoints: () => ['proxy', 'entrypoints'] as const,
    middlewares: () => ['proxy', 'middlewares'] as const,
    certResolvers: () => ['proxy', 'cert-resolvers'] as const,
    runtime: () => ['proxy', 'runtime'] as const,
    metrics: () => ['proxy', 'metrics'] as const,
    conflicts: () => ['proxy', 'conflicts'] as const,
    certificates: () => ['proxy', 'certificates'] as const,
    health: () => ['proxy', 'health'] as const,
  },
};
