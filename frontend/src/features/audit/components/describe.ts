import type { Tone } from '@/components/ui/badge';
import i18n from '@/lib/i18n';
import type auditEn from '@/locales/en/audit.json';

type VerbKey = keyof (typeof auditEn)['verbs'];
type AloneKey = keyof (typeof auditEn)['alone'];
type NounKey = keyof (typeof auditEn)['nouns'];
type FieldKey = keyof (typeof auditEn)['fields'];

/**
 * How the audit log says what happened, in one style everywhere: a verb in
 * the past tense, then what it was done to ("Created service", "Revoked API
 * token", "Signed in"). The texts live in the audit namespace: `verbs` holds the
 * sentence with a {{noun}}, `alone` the verb by itself (filters, actions without
 * a resource).
 */
type ActionStyle = { key: AloneKey; tone: Tone; noun?: false };

export const actionStyles: Record<string, ActionStyle> = {
  create: { key: 'create', tone: 'success' },
  update: { key: 'update', tone: 'info' },
  delete: { key: 'delete', tone: 'danger' },
  revoke: { key: 'revoke', tone: 'warning' },
  regenerate: { key: 'regenerate', tone: 'warning' },
  'rotate-secret': { key: 'rotateSecret', tone: 'warning' },
  accept: { key: 'accept', tone: 'success' },
  reset: { key: 'reset', tone: 'warning' },
  'reset-second-factor': { key: 'resetSecondFactor', tone: 'warning' },
  reset_password: { key: 'resetPassword', tone: 'warning' },
  reset_2fa: { key: 'reset2fa', tone: 'warning' },
  export: { key: 'export', tone: 'neutral' },
  import: { key: 'import', tone: 'primary' },
  signin: { key: 'signin', tone: 'neutral', noun: false },
  signin_step: { key: 'signinStep', tone: 'neutral', noun: false },
  signin_failed: { key: 'signinFailed', tone: 'warning', noun: false },
  signout: { key: 'signout', tone: 'neutral', noun: false },
  reauthenticate: { key: 'reauthenticate', tone: 'neutral', noun: false },
  setup: { key: 'setup', tone: 'primary', noun: false },
};

/** The key of what each resource type is called in a sentence. */
export const resourceNouns: Record<string, NounKey> = {
  services: 'services',
  'services.access': 'servicesAccess',
  'services.protection': 'servicesProtection',
  'services.security-configs': 'servicesProtection',
  'services.shared-links': 'servicesSharedLinks',
  domains: 'domains',
  'credential-sets': 'credentialSets',
  'machine-tokens': 'machineTokens',
  'oidc.clients': 'oidcClients',
  'notifications.channels': 'notificationsChannels',
  'notifications.settings': 'notificationsSettings',
  'alerts.rules': 'alertsRules',
  config: 'config',
  'config.portal': 'configPortal',
  sso: 'sso',
  sessions: 'sessions',
  'access.rules': 'accessRules',
  'admin.sso': 'adminSso',
  'admin.security': 'adminSecurity',
  'admin.tokens': 'adminTokens',
  'admin.sessions': 'adminSessions',
  'admin.me.password': 'adminMePassword',
  'admin.me.2fa': 'adminMe2fa',
  'admin.me.passkeys': 'adminMePasskeys',
  'admin.me.sessions': 'adminSessions',
  people: 'people',
  'people.password': 'peoplePassword',
  'people.second-factor': 'peopleSecondFactor',
  'people.sessions': 'peopleSessions',
  'people.app-passwords': 'peopleAppPasswords',
  groups: 'groups',
  'groups.members': 'groupsMembers',
  invitations: 'invitations',
  'registration.settings': 'registrationSettings',
  'proxy.managed': 'proxyManaged',
  'proxy.managed.secrets': 'proxyManagedSecrets',
  backups: 'backups',
  'backups.schedule': 'backupsSchedule',
  'audit.settings': 'auditSettings',
  transfer: 'transfer',
};

/** A resource type's noun; an unknown one reads as its last part ("foo.bar-baz" → "bar baz"). */
export function resourceNoun(type: string): string {
  const known = Object.hasOwn(resourceNouns, type) ? resourceNouns[type] : undefined;
  if (known) return i18n.t(`audit:nouns.${known}`);
  const last = type.split('.').pop() ?? type;
  return last.replace(/[-_]/g, ' ');
}

/** The verb of an action by itself, in the current language. */
export function actionLabel(action: string): string {
  const style = Object.hasOwn(actionStyles, action) ? actionStyles[action] : undefined;
  return style ? i18n.t(`audit:alone.${style.key}`) : action.replace(/[-_]/g, ' ');
}

/** The action as one short sentence, and the tone of its badge. */
export function describeAction(action: string, resourceType: string): { text: string; tone: Tone } {
  const style = Object.hasOwn(actionStyles, action) ? actionStyles[action] : undefined;
  if (!style) {
    const verb = action.replace(/[-_]/g, ' ');
    return { text: `${verb.charAt(0).toUpperCase()}${verb.slice(1)} ${resourceNoun(resourceType)}`.trim(), tone: 'neutral' };
  }
  if (style.noun === false || !resourceType) return { text: i18n.t(`audit:alone.${style.key}`), tone: style.tone };
  return { text: i18n.t(`audit:verbs.${style.key as VerbKey}`, { noun: resourceNoun(resourceType) }), tone: style.tone };
}

/** The actions the filter offers, as the list shows them without a resource (label through actionLabel). */
export const actionFilterOptions: string[] = ['create', 'update', 'delete', 'revoke', 'import', 'export', 'signin', 'signin_failed', 'signout', 'setup'];

const segmentWords: Record<string, string> = { id: 'ID', url: 'URL', tls: 'TLS', sso: 'SSO', ip: 'IP', hsts: 'HSTS', http: 'HTTP', https: 'HTTPS', dns: 'DNS', fqdns: 'Addresses' };

/** "loadBalancer" → "load balancer", "httpsRedirect" → "HTTPS redirect". */
function words(key: string): string {
  const parts = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]/g, ' ')
    .split(' ')
    .filter(Boolean)
    .map((w) => segmentWords[w.toLowerCase()] ?? w.toLowerCase());
  return parts.join(' ');
}

/** A path segment as a person reads it: a known field in the current language, else its words. */
function segmentLabel(key: string): string {
  if (/^[A-Za-z0-9]+$/.test(key) && i18n.exists(`audit:fields.${key}`)) return i18n.t(`audit:fields.${key as FieldKey}`);
  const w = words(key);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/**
 * A changed field's path for people: "targets[0].port" → "Targets › 1 › Port",
 * "items[id=…].note" → "Items › Note" (an id says nothing to a reader; the raw
 * path stays available as the cell's title).
 */
export function fieldLabel(path: string): string {
  if (path === '') return i18n.t('audit:diff.value');
  if (path === '…') return i18n.t('audit:diff.more');
  const out: string[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]|\[id=[^\]]*\]/g)) {
    if (m[1] !== undefined) out.push(segmentLabel(m[1]));
    else if (m[2] !== undefined) out.push(String(Number(m[2]) + 1));
  }
  return out.filter(Boolean).join(' › ');
}

/** The value the log keeps in place of a secret. */
export const REDACTED = '[redacted]';

/** A recorded value as text: absent is null, booleans read yes / no, lists are joined. */
export function valueText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? i18n.t('common:words.yes') : i18n.t('common:words.no');
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) return v.length ? v.join(', ') : i18n.t('audit:diff.none');
  return JSON.stringify(v, null, 2);
}
