// The API's shapes under the names feature code uses, as aliases into the types generated
// from the API description (api-schema.ts, `npm run gen:api`). Features import API types from
// here only, never from api-schema.ts, so each can read what another writes without importing
// that feature. Calls need none of them: api-client.ts types each call from `paths`.
import type { components } from './api-schema';

type Schemas = components['schemas'];

export type SystemInfo = Schemas['SystemInfo'];
export type AdminUser = Schemas['AdminUser'];
export type AdminCredentials = Schemas['AdminCredentials'];
/** admin: everything; viewer: every read but secret-bearing pages, no writes (an API token's role). */
export type AdminRole = Exclude<Schemas['PanelRole'], 'none'>;
/** What a person may do on the panel: admin, viewer, or none (no panel at all). */
export type PanelRole = Schemas['PanelRole'];
export type Invitation = Schemas['Invitation'];
export type InvitationInput = Schemas['InvitationCreate'];
export type InvitationCreated = Schemas['InvitationCreated'];
/** A person of the directory (GET /api/people): never a secret. */
export type Person = Schemas['Person'];
export type PersonPage = Schemas['PersonPage'];
export type PersonInput = Schemas['PersonCreate'];
export type PersonUpdate = Schemas['PersonUpdate'];
export type PersonSession = Schemas['AdminSession'];
/** A group of people with its members (GET /api/groups). */
export type Group = Schemas['Group'];
export type GroupInput = Schemas['GroupWrite'];
/** An administrator's API token for the panel's API (never its value). */
export type AdminToken = Schemas['AdminToken'];
export type AdminTokenInput = Schemas['AdminTokenCreate'];
export type AdminTokenCreated = Schemas['AdminTokenCreated'];
/** The signed-in administrator's second factors (GET /api/admin/me/2fa). */
export type TwoFactorStatus = Schemas['TwoFactorStatus'];
export type TotpEnrolment = Schemas['TotpEnrolment'];
export type Passkey = Schemas['Passkey'];
export type SecondFactorMethod = Schemas['TwoFactorPending']['secondFactor']['methods'][number];
export type AdminSecurity = Schemas['AdminSecurity'];
/** Who may sign in to the panel with SSO: claim = value gives role. The first matching rule wins. */
export type AdminSsoRule = Schemas['AdminSSORule'];
/** The panel's sign-in settings (GET/PUT /api/admin/sso). */
export type AdminSsoSettings = Schemas['AdminSSOSettings'];
export type AdminSsoSettingsInput = Schemas['AdminSSOSettingsRequest'];
/** One of the signed-in administrator's own panel sessions (GET /api/admin/me/sessions). */
export type AdminSession = Schemas['AdminSession'];
/** A person's app password for a basic-auth client (never its secret). */
export type AppPassword = Schemas['AppPassword'];
export type AppPasswordCreated = Schemas['AppPasswordCreated'];
export type PasswordChange = Schemas['AdminPasswordChange'];
/** A begin call's answer: the options for navigator.credentials (binary fields base64url). */
export type WebAuthnOptions = Schemas['WebAuthnOptions'];
/** A finish call's credential: the browser's PublicKeyCredential as JSON. */
export type WebAuthnCredential = Schemas['WebAuthnCredential'];

export type Domain = Schemas['Domain'];
export type DomainInput = Schemas['DomainRequest'];

export type Hostname = Schemas['ServiceHostname'];
export type RuleType = Schemas['ServiceRule']['type'];
export type MatchRule = Schemas['ServiceRule'];
export type Expiry = Schemas['ServiceExpiry'];
export type Protection = Schemas['ServiceProtection'];
export type Service = Schemas['Service'];
export type ServiceInput = Schemas['ServiceRequest'];
export type ConfigPreview = Schemas['ServiceConfigPreview'];

export type GlobalConfig = Schemas['Settings'];

export type SsoSettings = Schemas['SSOSettings'];
export type SsoSettingsInput = Schemas['SSOSettingsRequest'];

export type SecurityConfig = Schemas['SecurityConfig'];
export type SecurityConfigInput = Schemas['SecurityConfigRequest'];
/** Every protection of a service in one document (GET/PUT /api/services/{id}/protection). */
export type ProtectionSettings = Schemas['ProtectionSettings'];
export type CredentialSet = Schemas['CredentialSet'];
export type CredentialSetInput = Schemas['CredentialSetRequest'];

export type SharedLinkStatus = Schemas['SharedLink']['status'];
export type SharedLink = Schemas['SharedLink'];
export type SharedLinkInput = Schemas['SharedLinkRequest'];

export type Session = Schemas['AccessSession'];

export type RuntimeStatus = Schemas['ProxyStatus'];
export type ProxyEntrypoint = Schemas['ProxyEntrypoint'];
export type ProxyMiddleware = Schemas['ProxyMiddleware'];
export type CertResolver = Schemas['ProxyCertResolversView']['items'][number];
export type ServiceHealth = Schemas['ProxyServiceHealth'];
export type HealthView = Schemas['ProxyHealthView'];
export type ServiceMetrics = Schemas['ProxyServiceMetrics'];
export type ProxyConflict = Schemas['ProxyConflict'];
export type CertificatesView = Schemas['ProxyCertificatesView'];
export type RuntimeRouter = Schemas['ProxyRouter'];
export type RuntimeEntry = Schemas['ProxyService'];
export type RuntimeView = Schemas['ProxyRuntimeView'];

export type ManagedConfig = Schemas['ManagedConfig'];
export type ManagedState = Schemas['ManagedState'];
export type DnsProvider = Schemas['ManagedDNSProvider'];

export type AccessAction = Schemas['AccessAction'];
/** '' = automatic: authenticate when the service has a protection, allow otherwise. */
export type DefaultAction = Schemas['ServiceAccess']['defaultAction'];
export type AccessRule = Schemas['AccessRule'];
export type PathMatchType = NonNullable<AccessRule['paths']>[number]['type'];
export type HeaderMatchType = NonNullable<NonNullable<AccessRule['headers']>[number]['match']>;
export type ServiceAccess = Schemas['ServiceAccess'];
export type ServiceAccessInput = Schemas['ServiceAccessInput'];
export type GlobalAccessRules = Schemas['GlobalAccessRules'];
export type GlobalAccessRulesInput = Schemas['GlobalAccessRulesInput'];
export type AccessPreset = Schemas['AccessPreset'];

export type RuleTestInput = Schemas['AccessTestRequest'];
export type RuleTestResult = Schemas['AccessTestResult'];
export type RuleTestStep = RuleTestResult['steps'][number];

export type MachineToken = Schemas['MachineToken'];
export type MachineTokenInput = Schemas['MachineTokenCreate'];
export type MachineTokenCreated = Schemas['MachineTokenCreated'];
/** An OpenID Connect client: an app that signs people in with the panel (never its secret). */
export type OidcClient = Schemas['OidcClient'];
export type OidcClientInput = Schemas['OidcClientInput'];
/** A created client or a rotated secret: the only time the secret is shown. */
export type OidcClientWithSecret = Schemas['OidcClientWithSecret'];
export type OidcClaimMapping = Schemas['OidcClaimMapping'];
export type OidcPreset = Schemas['OidcPreset'];
/** Where apps find the panel as their OpenID provider (the portal). */
export type OidcProvider = Schemas['OidcProvider'];
export type OidcScope = Schemas['OidcScope'];
export type OidcGrantType = Schemas['OidcGrantType'];

export type AccessDecision = Schemas['AccessLogEntry']['decision'];
/** Traffic over time (GET /api/traffic, /api/services/{id}/traffic): one window, global or of a service. */
export type Traffic = Schemas['TrafficSeries'];
/** Every service's totals and sparkline (GET /api/traffic/services), busiest first. */
export type ServicesTraffic = Schemas['ServicesTraffic'];
export type ServiceTraffic = Schemas['ServiceTraffic'];
/** One value per step; null where nothing is known. */
export type TrafficValues = Schemas['TrafficValues'];
export type AccessLogEntry = Schemas['AccessLogEntry'];
/** Why a sign-in was asked for: no credentials, a wrong password, an invalid token (empty otherwise). */
export type AccessLogReason = Schemas['AccessLogEntry']['reason'];
export type AccessLogPage = Schemas['AccessLogPage'];

// Evidence of what Traefik fetched and runs (GET /api/proxy/status).
export type ProxyStatus = Schemas['ProxyStatusView'];
export type ConfigPoll = Schemas['ConfigPoll'];
export type ServiceBadge = ProxyStatus['services'][number];
export type ServiceBadgeState = ServiceBadge['state'];
export type TraefikSetupGuide = Schemas['TraefikSetup'];
export type ProxyConnectionCheck = Schemas['ProxyConnectionCheck'];
export type PanelSystemInfo = Schemas['PanelSystemInfo'];

// A service's HTTP options: HTTPS (with its domain's defaults), its kind, maintenance and load balancing.
/** A Strict-Transport-Security policy; maxAge 0 sends no header. */
export type Hsts = Schemas['Hsts'];
export type DomainHttps = Schemas['DomainHTTPS'];
/** A service's HTTPS overrides; null inherits the domain's default. */
export type ServiceHttps = Schemas['ServiceHTTPS'];
export type ServiceKind = Service['kind'];
/** permanent: 301 (308 for methods other than GET); else 302 (307). */
export type ServiceRedirect = Schemas['ServiceRedirect'];
export type LoadBalancer = Schemas['ServiceLoadBalancer'];

export type AuditChange = Schemas['AuditChange'];
export type AuditEntry = Schemas['AuditEntry'];
export type AuditPage = Schemas['AuditPage'];
export type AuditSettings = Schemas['AuditSettings'];

export type Backup = Schemas['Backup'];
export type BackupSchedule = Schemas['BackupSchedule'];
export type BackupStatus = Schemas['BackupStatus'];

export type ChannelKind = Schemas['NotificationChannelKind'];
export type EventKind = Schemas['NotificationEventKind'];
export type ChannelSettings = Schemas['NotificationChannelSettings'];
export type ChannelSecrets = Schemas['NotificationChannelSecrets'];
export type SecretName = keyof ChannelSecrets;
export type Channel = Schemas['NotificationChannel'];
export type LastDelivery = NonNullable<Channel['lastDelivery']>;
export type ChannelInput = Schemas['NotificationChannelRequest'];
export type NotificationSettings = Schemas['NotificationSettings'];
/** An alert rule over the traffic history (GET /api/alerts/rules). */
export type AlertRule = Schemas['AlertRule'];
export type AlertRuleInput = Schemas['AlertRuleRequest'];
export type AlertKind = Schemas['AlertKind'];
/** One episode of an alert rule: firing, then resolved (GET /api/alerts/events). */
export type AlertEvent = Schemas['AlertEvent'];
export type AlertState = Schemas['AlertState'];
export type NotificationTestResult = Schemas['NotificationTestResult'];

export type ClusterView = Schemas['ClusterView'];
export type ClusterReplica = Schemas['ClusterReplica'];

export type ImportPlan = Schemas['ImportPlan'];
export type ImportItem = Schemas['ImportItem'];
export type ImportMode = ImportPlan['mode'];
export type ExportRequest = Schemas['ExportRequest'];
export type PortalSettings = Schemas['PortalSettings'];

export type ContainerList = Schemas['ContainerList'];
export type Container = Schemas['Container'];
export type ContainerSuggestion = Schemas['ContainerSuggestion'];
export type ContainerServiceInput = Schemas['ContainerServiceRequest'];
export type ContainerBinding = Schemas['ContainerBinding'];
