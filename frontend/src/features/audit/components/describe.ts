import type { Tone } from '@/components/ui/badge';

/**
 * How the audit log says what happened, in one style everywhere: a verb in
 * the past tense, then what it was done to ("Created service", "Revoked API
 * token", "Signed in").
 */
type ActionStyle = { verb: string; tone: Tone; noun?: false };

export const actionStyles: Record<string, ActionStyle> = {
  create: { verb: 'Created', tone: 'success' },
  update: { verb: 'Updated', tone: 'info' },
  delete: { verb: 'Deleted', tone: 'danger' },
  revoke: { verb: 'Revoked', tone: 'warning' },
  regenerate: { verb: 'Regenerated', tone: 'warning' },
  accept: { verb: 'Accepted', tone: 'success' },
  reset: { verb: 'Reset', tone: 'warning' },
  'reset-second-factor': { verb: 'Reset', tone: 'warning' },
  reset_password: { verb: 'Reset password of', tone: 'warning' },
  reset_2fa: { verb: 'Reset second factor of', tone: 'warning' },
  export: { verb: 'Exported', tone: 'neutral' },
  import: { verb: 'Imported', tone: 'primary' },
  signin: { verb: 'Signed in', tone: 'neutral', noun: false },
  signin_step: { verb: 'Passed a sign-in step', tone: 'neutral', noun: false },
  signin_failed: { verb: 'Failed to sign in', tone: 'warning', noun: false },
  signout: { verb: 'Signed out', tone: 'neutral', noun: false },
  reauthenticate: { verb: 'Confirmed identity', tone: 'neutral', noun: false },
  setup: { verb: 'Set up the panel', tone: 'primary', noun: false },
};

/** What each resource type is called in a sentence. */
export const resourceNouns: Record<string, string> = {
  services: 'service',
  'services.access': 'access rules',
  'services.protection': 'protection',
  'services.security-configs': 'protection',
  'services.shared-links': 'shared link',
  domains: 'domain',
  'credential-sets': 'credential set',
  'machine-tokens': 'machine token',
  'notifications.channels': 'notification channel',
  'notifications.settings': 'notification settings',
  config: 'settings',
  'config.portal': 'portal settings',
  sso: 'single sign-on for visitors',
  sessions: 'visitor session',
  'access.rules': 'global access rules',
  'admin.sso': 'panel single sign-on',
  'admin.security': 'sign-in security',
  'admin.tokens': 'API token',
  'admin.sessions': 'session',
  'admin.me.password': 'own password',
  'admin.me.2fa': 'two-factor sign-in',
  'admin.me.passkeys': 'passkey',
  'admin.me.sessions': 'session',
  people: 'person',
  'people.password': 'password',
  'people.second-factor': 'second factor',
  'people.sessions': 'sessions',
  'people.app-passwords': 'app password',
  groups: 'group',
  'groups.members': 'group members',
  invitations: 'invitation',
  'registration.settings': 'self-registration settings',
  'proxy.managed': 'managed Traefik',
  'proxy.managed.secrets': 'DNS credentials',
  backups: 'backup',
  'backups.schedule': 'backup schedule',
  'audit.settings': 'audit log retention',
  transfer: 'configuration',
};

/** A resource type's noun; an unknown one reads as its last part ("foo.bar-baz" → "bar baz"). */
export function resourceNoun(type: string): string {
  const known = resourceNouns[type];
  if (known) return known;
  const last = type.split('.').pop() ?? type;
  return last.replace(/[-_]/g, ' ');
}

/** The action as one short sentence, and the tone of its badge. */
export function describeAction(action: string, resourceType: string): { text: string; tone: Tone } {
  const style = actionStyles[action];
  if (!style) {
    const verb = action.replace(/[-_]/g, ' ');
    return { text: `${verb.charAt(0).toUpperCase()}${verb.slice(1)} ${resourceNoun(resourceType)}`.trim(), tone: 'neutral' };
  }
  if (style.noun === false || !resourceType) return { text: style.verb, tone: style.tone };
  return { text: `${style.verb} ${resourceNoun(resourceType)}`, tone: style.tone };
}

/** The actions the filter offers: one label each, as the list shows them without a resource. */
export const actionFilterOptions: { value: string; label: string }[] = [
  { value: 'create', label: 'Created' },
  { value: 'update', label: 'Updated' },
  { value: 'delete', label: 'Deleted' },
  { value: 'revoke', label: 'Revoked' },
  { value: 'import', label: 'Imported' },
  { value: 'export', label: 'Exported' },
  { value: 'signin', label: 'Signed in' },
  { value: 'signin_failed', label: 'Failed to sign in' },
  { value: 'signout', label: 'Signed out' },
  { value: 'setup', label: 'Set up the panel' },
];

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

/**
 * A changed field's path for people: "targets[0].port" → "Targets › 1 › Port",
 * "items[id=…].note" → "Items › Note" (an id says nothing to a reader; the raw
 * path stays available as the cell's title).
 */
export function fieldLabel(path: string): string {
  if (path === '') return 'Value';
  if (path === '…') return 'More';
  const out: string[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]|\[id=[^\]]*\]/g)) {
    if (m[1] !== undefined) out.push(words(m[1]));
    else if (m[2] !== undefined) out.push(String(Number(m[2]) + 1));
  }
  return out
    .filter(Boolean)
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
    .join(' › ');
}

/** The value the log keeps in place of a secret. */
export const REDACTED = '[redacted]';

/** A recorded value as text: absent is null, booleans read yes / no, lists are joined. */
export function valueText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) return v.length ? v.join(', ') : '(none)';
  return JSON.stringify(v, null, 2);
}
