// Shapes from docs/api.md. Shared by features so each can read what another writes
// without importing that feature.

export type Items<T> = { items: T[] };

export type SystemInfo = {
  version: string;
  managed: boolean;
  setupRequired: boolean;
  /** The login page offers "Sign in with SSO". */
  adminSso?: boolean;
  /** The login page offers the password form (false: SSO only). */
  localPasswords?: boolean;
};
/** The signed-in administrator's second factors (GET /api/admin/me/2fa). */
export type TwoFactorStatus = {
  totp: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
  /** A confirmed authenticator app or at least one passkey. */
  enrolled: boolean;
  /** The panel requires every administrator to have a second factor. */
  required: boolean;
  passkeysAvailable: boolean;
  passkeysProblem?: string;
};
export type TotpEnrolment = { secret: string; url: string; qrCode: string };
export type Passkey = { id: string; name: string; createdAt: string; lastUsedAt: string | null };
/** POST /api/admin/login: a session, or the second factors that finish signing in. */
export type LoginResult = { user: AdminUser } | { secondFactor: { methods: SecondFactorMethod[] } };
export type SecondFactorMethod = 'totp' | 'passkey' | 'recovery';
export type AdminSecurity = { requireTwoFactor: boolean };
/** admin: everything; viewer: every read but secret-bearing pages, no writes. */
export type AdminRole = 'admin' | 'viewer';
export type AdminUser = { id: string; username: string; role: AdminRole };
/** An administrator as the administrators page lists them (GET /api/admin/users). */
export type AdminAccount = {
  id: string;
  username: string;
  role: AdminRole;
  disabled: boolean;
  /** When the newest live session opened; null without one. */
  lastSignInAt: string | null;
  createdAt: string;
};
export type AdminAccountInput = { username: string; password: string; role: AdminRole };
export type AdminAccountUpdate = { role?: AdminRole; disabled?: boolean };
export type AdminTokenStatus = 'active' | 'expired' | 'revoked';
/** An administrator's API token for the panel's API (never its value). */
export type AdminToken = {
  id: string;
  name: string;
  prefix: string;
  role: AdminRole;
  createdBy: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  lastUsedAddress: string;
  status: AdminTokenStatus;
};
export type AdminTokenInput = { name: string; role: AdminRole; expiresAt: string | null };
export type AdminTokenCreated = { token: AdminToken; value: string };
/** One of the signed-in administrator's own panel sessions (GET /api/admin/me/sessions). */
export type AdminSession = {
  id: string;
  /** The session this request was made with. */
  current: boolean;
  userAgent: string;
  address: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
};
export type PasswordChange = { currentPassword: string; newPassword: string };

type CertConfig = { main: string; sans: string[]; resolver: string };
export type Domain = {
  id: string;
  name: string;
  domain: string;
  certResolver: string;
  wildcard: boolean;
  isDefault: boolean;
  certConfigs: CertConfig[];
  /** Defaults the domain's services inherit unless they override them. */
  https: DomainHttps;
  createdAt: string;
  updatedAt: string;
};

/** A Strict-Transport-Security policy; maxAge 0 sends no header. */
export type Hsts = { maxAge: number; includeSubdomains: boolean; preload: boolean };
export type ServiceKind = 'proxy' | 'redirect';
/** permanent: 301 (308 for methods other than GET); else 302 (307). */
export type ServiceRedirect = { url: string; permanent: boolean; keepPath: boolean };
export type DomainHttps = { redirect: boolean; hsts: Hsts };
/** A service's HTTPS overrides; null inherits the domain's default. */
export type ServiceHttps = { redirect: boolean | null; hsts: Hsts | null };

export type Hostname =
  | { type: 'subdomain'; value: string }
  | { type: 'apex'; value?: string }
  | { type: 'custom'; value: string };

type TargetScheme = 'http' | 'https' | 'h2c';
/** weight: share of requests (weighted round robin); absent or 0 is 1. */
type Target = { scheme: TargetScheme; host: string; port: number; weight?: number };
export type LoadBalancer = {
  healthCheck: { path: string; intervalSeconds: number; timeoutSeconds: number; status: number } | null;
  sticky: { cookieName: string; secure: boolean; httpOnly: boolean; sameSite: '' | 'none' | 'lax' | 'strict' } | null;
  /** Seconds; 0 keeps Traefik's default. */
  timeouts: { dialSeconds: number; responseHeaderSeconds: number; idleConnSeconds: number };
};

export type RuleType = 'pathPrefix' | 'path' | 'header' | 'query' | 'method' | 'clientIP';
export type MatchRule = { type: RuleType; name?: string; value: string };

export type Expiry =
  | { type: 'never' }
  | { type: 'at'; at: string }
  | { type: 'duration'; seconds: number };

export type Protection = { basicAuth: boolean; sso: boolean; sharedLinks: boolean; tokens?: boolean };

export type Service = {
  id: string;
  name: string;
  domainId: string | null;
  hostnames: Hostname[];
  fqdns: string[];
  targets: Target[];
  passHostHeader: boolean;
  insecureSkipVerify: boolean;
  entrypoints: string[];
  rules: MatchRule[];
  middlewares: string[];
  headers: Record<string, string>;
  https?: ServiceHttps;
  /** proxy: to the targets; redirect: every request to redirect.url (the targets are kept). */
  kind?: ServiceKind;
  redirect?: ServiceRedirect;
  /** While enabled, the panel answers a maintenance page with message instead of the upstream. */
  maintenance?: { enabled: boolean; message: string };
  loadBalancer?: LoadBalancer;
  enabled: boolean;
  expiry?: Expiry | null;
  expiresAt?: string | null;
  enabledAt?: string | null;
  protection?: Protection;
  createdAt: string;
  updatedAt: string;
};

export type ServiceInput = Omit<
  Service,
  'id' | 'fqdns' | 'expiresAt' | 'enabledAt' | 'protection' | 'createdAt' | 'updatedAt'
>;

export type GlobalConfig = {
  adminDomain: string;
  defaultEntrypoints: string[];
  globalMiddlewares: string[];
  defaultLifetimeSeconds: number;
};

export type SsoSettings = {
  enabled: boolean;
  issuer: string;
  clientId: string;
  clientSecretSet?: boolean;
  clientSecret?: string;
  scopes: string[];
  groupsClaim: string;
  /** How long an SSO session lasts. */
  sessionSeconds?: number;
  /** Read-only: the callback URL to register at the identity provider. */
  redirectUrl?: string;
};

export type SecurityConfig =
  | { type: 'basic_auth'; enabled: boolean; credentialSetId: string }
  | { type: 'sso'; enabled: boolean; users: string[]; groups: string[] }
  | { type: 'shared_links'; enabled: boolean }
  | { type: 'tokens'; enabled: boolean; header?: string };

export type CredentialSet = {
  id: string;
  name: string;
  users: { username: string }[];
  createdAt: string;
  updatedAt: string;
};

export type SharedLinkStatus = 'active' | 'used' | 'expired' | 'revoked';
export type SharedLink = {
  id: string;
  note: string;
  status: SharedLinkStatus;
  expiresAt: string;
  usedAt?: string | null;
  revokedAt?: string | null;
  sessionSeconds: number;
  createdAt: string;
  url?: string;
  /** Where the link lands (the URL's path before ?gh_link=). */
  path?: string;
  /** Only in the create answer: routing rules a browser link cannot satisfy. */
  warnings?: string[];
};

export type Session = {
  id: string;
  serviceId: string;
  serviceName: string;
  user: string;
  email: string;
  name?: string;
  groups?: string[];
  sharedLinkId?: string;
  kind: 'sso' | 'shared_link' | string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
};

export type RuntimeStatus = { configured: boolean; reachable: boolean; error?: string };
export type RuntimeItems<T> = RuntimeStatus & { items?: T[] };

export type ProxyEntrypoint = { name: string; address: string; tls?: boolean; certResolver?: string; asDefault?: boolean };
export type ProxyMiddleware = { name: string; provider: string; type: string; status: string; errors?: string[]; usedBy?: string[] };
export type CertResolver = { name: string; sources: string[] };
type ServerHealth = { url: string; status: string; probe?: 'up' | 'down' | ''; probeError?: string; probeMs?: number };
export type ServiceHealth = {
  serviceId: string;
  name?: string;
  source?: 'traefik' | 'panel';
  up?: number;
  total?: number;
  servers: ServerHealth[];
};
export type HealthView = RuntimeItems<ServiceHealth> & { probed?: boolean };
export type ServiceMetrics = {
  serviceId: string;
  name?: string;
  requests?: number;
  windowSeconds?: number;
  requestRate: number;
  status: { '2xx': number; '3xx': number; '4xx': number; '5xx': number };
  errorRate: number;
  avgLatencyMs: number;
  history: { at: string; requestRate: number; errorRate?: number }[];
};
export type ProxyConflict = {
  serviceId: string;
  kind: 'host' | 'sni' | 'missing_middleware' | string;
  host?: string;
  router?: string;
  provider?: string;
  rule?: string;
  entrypoints?: string[];
  priority?: number;
  panelPriority?: number;
  otherServiceId?: string;
  middleware?: string;
  message?: string;
};
type Certificate = {
  fingerprint?: string;
  subject: string;
  sans: string[];
  issuer: string;
  notBefore?: string;
  notAfter: string;
  daysLeft: number;
  status?: 'valid' | 'expiring' | 'expired';
  keyType?: string;
  serviceIds?: string[];
};
export type CertificatesView = RuntimeStatus & { supported?: boolean; version?: string; message?: string; items?: Certificate[] };

export type RuntimeRouter = {
  name: string;
  rule?: string;
  service?: string;
  status?: string;
  provider?: string;
  entryPoints?: string[];
  middlewares?: string[];
  serviceId?: string;
  priority?: number;
  errors?: string[];
  tls?: unknown;
  [k: string]: unknown;
};
export type RuntimeEntry = {
  name: string;
  status?: string;
  provider?: string;
  type?: string;
  errors?: string[];
  serversUp?: number;
  serversTotal?: number;
  usedBy?: string[];
  serviceId?: string;
  address?: string;
  [k: string]: unknown;
};
export type RuntimeView = RuntimeStatus & {
  version?: string;
  routers?: RuntimeRouter[];
  services?: RuntimeEntry[];
  middlewares?: RuntimeEntry[];
  entrypoints?: RuntimeEntry[];
  tcpRouters?: RuntimeRouter[];
  udpRouters?: RuntimeRouter[];
  ownersKnown?: boolean;
};

type ManagedEntrypoint = { name: string; host?: string; port: number; tls: boolean; resolver: string; redirectTo: string };
type ManagedResolver = {
  name: string;
  email: string;
  challenge: 'tlsalpn' | 'http' | 'dns';
  httpEntrypoint: string;
  dnsProvider: string;
  dnsResolvers: string[];
  propagationDelaySeconds: number;
};
export type ManagedConfig = { entrypoints: ManagedEntrypoint[]; resolvers: ManagedResolver[]; logLevel: string };
export type ManagedState = {
  config: ManagedConfig;
  credentials: { name: string; updatedAt: string }[];
  status: 'applied' | 'pending';
  appliedAt?: string | null;
};
export type DnsProvider = { code: string; name: string; fields: string[]; optional?: string[]; docsUrl?: string };

// Access rules (service and global lists), the rule tester, machine tokens and the access log.

export type AccessAction = 'allow' | 'deny' | 'authenticate';
/** '' = automatic: authenticate when the service has a protection, allow otherwise. */
export type DefaultAction = '' | AccessAction;
export type PathMatchType = 'exact' | 'prefix' | 'glob' | 'regex';
type PathMatch = { type: PathMatchType; value: string };
export type HeaderMatchType = 'present' | 'equals' | 'contains';
type HeaderMatch = { name: string; match?: HeaderMatchType; value?: string };
/** Conditions are omitted from the wire when empty. */
export type AccessRule = {
  action: AccessAction;
  note?: string;
  paths?: PathMatch[];
  methods?: string[];
  sources?: string[];
  countries?: string[];
  headers?: HeaderMatch[];
};
export type ServiceAccess = {
  serviceId: string;
  defaultAction: DefaultAction;
  effectiveDefault: AccessAction;
  rules: AccessRule[];
  protections: string[];
  geoip: boolean;
  /** Rule lists that cannot do what they seem to (e.g. authenticate without a protection). */
  warnings?: string[];
  updatedAt?: string | null;
};
export type ServiceAccessInput = { defaultAction: DefaultAction; rules: AccessRule[] };
export type GlobalAccessRules = { rules: AccessRule[] | null; geoip: boolean; updatedAt?: string | null };
export type AccessPreset = { id: string; name: string; description: string; docs?: string[]; rules: AccessRule[] };

export type RuleTestInput = {
  method: string;
  url: string;
  clientAddress?: string;
  headers?: Record<string, string>;
  draft?: ServiceAccessInput;
};
export type RuleTestStep = {
  scope: 'global' | 'service';
  index: number;
  action: AccessAction;
  note?: string;
  matched: boolean;
  reason: string;
};
export type RuleTestResult = {
  decision: AccessAction;
  scope: 'global' | 'service' | 'default';
  index?: number;
  reason: string;
  path: string;
  ambiguous: boolean;
  country?: string;
  steps: RuleTestStep[] | null;
  protections?: string[] | null;
  warnings?: string[];
};

export type MachineTokenStatus = 'active' | 'expired' | 'revoked';
type MachineTokenScope = { pathPrefix: string; methods: string[] };
export type MachineToken = {
  id: string;
  name: string;
  prefix: string;
  services: { id: string; name: string }[];
  scope?: MachineTokenScope | null;
  expiresAt: string | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  lastUsedAddress: string;
  status: MachineTokenStatus;
};
export type MachineTokenInput = { name: string; serviceIds: string[]; scope: MachineTokenScope; expiresAt: string | null };
export type MachineTokenCreated = { token: MachineToken; value: string; warnings?: string[] };

export type AccessDecision = 'allowed' | 'authenticated' | 'denied' | 'unauthenticated' | 'forbidden' | 'rate_limited';
export type AccessLogEntry = {
  seq: number;
  time: string;
  serviceId: string;
  serviceName: string;
  clientAddress: string;
  method: string;
  host: string;
  path: string;
  decision: AccessDecision;
  by: string;
  identity: string;
};
export type AccessLogPage = { items: AccessLogEntry[]; capacity: number };

/** Who may sign in to the panel with SSO: claim = value gives role. The first matching rule wins. */
export type AdminSsoRule = { claim: 'email' | 'username' | 'group'; value: string; role: 'admin' | 'viewer' };
/** The panel's sign-in settings (GET/PUT /api/admin/sso). */
export type AdminSsoSettings = {
  enabled: boolean;
  rules: AdminSsoRule[];
  createAdmins: boolean;
  localPasswords: boolean;
  /** Read-only: the OpenID provider (single sign-on settings) is set up and on. */
  providerConfigured?: boolean;
  /** Read-only: the callback to register at the provider. */
  redirectUrl?: string;
};
