import { z } from 'zod';
import type { Expiry, Hostname, LoadBalancer, Service, ServiceInput } from '@/lib/api-types';
import { splitDuration } from '@/lib/format';
import { fieldsToHsts, hstsIssues, hstsToFields, mapHttpsPath } from '@/lib/hsts';
import i18n from '@/lib/i18n';
import { isIpOrCidr } from '@/lib/netaddr';
import type servicesEn from '@/locales/en/services.json';

type SchemaKey = keyof (typeof servicesEn)['schema'];
/** A form message in the current language, looked up when the check runs. */
const tr = (key: SchemaKey) => i18n.t(`services:schema.${key}`);
/** The same as a zod option, so the text follows a language switch. */
const msg = (key: SchemaKey) => ({ error: () => tr(key) });

const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;
function isHostname(v: string, allowWildcard = true): boolean {
  let s = v.trim().replace(/\.$/, '');
  if (allowWildcard && s.startsWith('*.')) s = s.slice(2);
  if (!s || s.length > 253) return false;
  return s.split('.').every((l) => label.test(l));
}
const ipv4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const ipv6 = /^[0-9a-f:]+$/i;
const isHostOrIp = (v: string) => ipv4.test(v) || (v.includes(':') && ipv6.test(v)) || isHostname(v, false);

const hostnameSchema = z.object({ type: z.enum(['subdomain', 'apex', 'custom']), value: z.string() });

/** A hostname's problem, or null; a tcp service's SNI names take no wildcard. */
function hostnameIssue(h: { type: string; value: string }, wildcard: boolean): string | null {
  const v = h.value.trim();
  if (h.type === 'subdomain') {
    if (!v) return tr('enterSubdomain');
    if (!isHostname(v, wildcard)) return tr('hostnameChars');
  }
  if (h.type === 'custom') {
    if (!v) return tr('enterHostname');
    if (!isHostname(v, wildcard) || !v.includes('.')) return tr('fullHostname');
  }
  return null;
}

/** Service kinds: HTTP (proxy, redirect) and the connection kinds. */
export const streamKinds = ['tcp', 'udp'] as const;
export const isStream = (kind: string) => kind === 'tcp' || kind === 'udp';

const ruleSchema = z
  .object({
    type: z.enum(['pathPrefix', 'path', 'header', 'query', 'method', 'clientIP']),
    name: z.string(),
    value: z.string(),
  })
  .superRefine((r, ctx) => {
    const v = r.value.trim();
    if ((r.type === 'header' || r.type === 'query') && !r.name.trim())
      ctx.addIssue({ code: 'custom', path: ['name'], message: tr('enterName') });
    if (!v && r.type !== 'query') return ctx.addIssue({ code: 'custom', path: ['value'], message: tr('enterValue') });
    if ((r.type === 'pathPrefix' || r.type === 'path') && !v.startsWith('/'))
      ctx.addIssue({ code: 'custom', path: ['value'], message: tr('pathSlash') });
    if (r.type === 'clientIP' && !isIpOrCidr(v)) ctx.addIssue({ code: 'custom', path: ['value'], message: tr('ipOrCidr') });
    if (/[`]/.test(v) || /[`]/.test(r.name)) ctx.addIssue({ code: 'custom', path: ['value'], message: tr('noBackticks') });
  });

/** Whether a match rule passes the same checks as on submit: the preview shows only these. */
export function isValidRule(r: { type: string; name: string; value: string }): boolean {
  return ruleSchema.safeParse(r).success;
}

/** The same checks the server applies (internal/validate/redirect_url.go), worded for the form. */
export function redirectUrlIssue(raw: string, keepPath: boolean): string | null {
  if (!raw) return tr('redirectEnter');
  if (raw.length > 2048) return tr('redirectTooLong');
  if (!/^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/.test(raw)) return tr('redirectChars');
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return tr('redirectFull');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return tr('redirectScheme');
  if (u.username || u.password) return tr('redirectCredentials');
  if (!u.hostname) return tr('redirectHost');
  if (keepPath && /[?#]/.test(raw)) return tr('redirectKeepPath');
  return null;
}

export const serviceSchema = z
  .object({
    name: z.string().trim().min(1, msg('nameRequired')).max(100, msg('max100')),
    domainId: z.string(),
    hostnames: z.array(hostnameSchema),
    targets: z
      .array(
        z.object({
          scheme: z.enum(['http', 'https', 'h2c', 'tcp', 'udp']),
          host: z.string().trim(),
          port: z
            .number(msg('enterPort'))
            .int(msg('wholeNumbers'))
            .min(1, msg('portRange'))
            .max(65535, msg('portRange')),
          weight: z.number(msg('enterWeight')).int(msg('wholeNumbers')).min(1, msg('weightRange')).max(1000, msg('weightRange')),
        }),
      )
      .max(32, msg('max32Targets')),
    passHostHeader: z.boolean(),
    insecureSkipVerify: z.boolean(),
    entrypoints: z.array(z.string()),
    rules: z.array(ruleSchema),
    middlewares: z.array(z.string()),
    headers: z.array(
      z.object({
        name: z.string().trim().min(1, msg('enterHeaderName')).regex(/^[A-Za-z0-9-]+$/, msg('headerChars')),
        value: z.string(),
      }),
    ),
    kind: z.enum(['proxy', 'redirect', 'tcp', 'udp']),
    tcpTls: z.enum(['none', 'passthrough', 'terminate']),
    tcpProxyProtocol: z.enum(['0', '1', '2']),
    tcpAllowList: z.array(z.string()).max(100, msg('max100Ranges')),
    tcpMaxConnections: z
      .number(msg('enterNumber'))
      .int(msg('wholeNumber'))
      .min(0, msg('connectionsRange'))
      .max(1000000, msg('connectionsRange')),
    redirectUrl: z.string().trim(),
    redirectPermanent: z.boolean(),
    redirectKeepPath: z.boolean(),
    hcOn: z.boolean(),
    hcPath: z.string().trim(),
    hcInterval: z.number(msg('enterSeconds')),
    hcTimeout: z.number(msg('enterSeconds')),
    hcStatus: z.number(msg('enterStatus')),
    stickyOn: z.boolean(),
    stickyCookie: z.string().trim().max(64, msg('max64')).regex(/^[A-Za-z0-9_-]*$/, msg('cookieChars')),
    stickySecure: z.boolean(),
    stickyHttpOnly: z.boolean(),
    stickySameSite: z.enum(['', 'none', 'lax', 'strict']),
    toDial: z.number(msg('enterSecondsOrZero')).int(msg('wholeSeconds')).min(0, msg('timeoutRange')).max(3600, msg('timeoutRange')),
    toResponseHeader: z.number(msg('enterSecondsOrZero')).int(msg('wholeSeconds')).min(0, msg('timeoutRange')).max(3600, msg('timeoutRange')),
    toIdle: z.number(msg('enterSecondsOrZero')).int(msg('wholeSeconds')).min(0, msg('timeoutRange')).max(3600, msg('timeoutRange')),
    launcherHidden: z.boolean(),
    launcherDescription: z.string().trim().max(300, msg('max300')),
    launcherIcon: z.string().trim().max(2048, msg('max2048')),
    launcherGroup: z.string().trim().max(60, msg('max60')),
    launcherOrder: z.number(msg('enterNumber')).int(msg('wholeNumber')).min(-10000, msg('orderRange')).max(10000, msg('orderRange')),
    maintenance: z.boolean(),
    maintenanceMessage: z
      .string()
      .trim()
      .max(2000, msg('max2000'))
      // eslint-disable-next-line no-control-regex
      .refine((v) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(v), msg('noControl')),
    httpsRedirect: z.enum(['inherit', 'on', 'off']),
    hstsMode: z.enum(['inherit', 'on', 'off']),
    hstsMaxAge: z.number(msg('enterNumberOfSeconds')),
    hstsIncludeSubdomains: z.boolean(),
    hstsPreload: z.boolean(),
    enabled: z.boolean(),
    expiryType: z.enum(['default', 'never', 'at', 'duration']),
    expiryAt: z.string(),
    expiryAmount: z.number(msg('enterNumber')),
    expiryUnit: z.number(),
  })
  .superRefine((v, ctx) => {
    const stream = isStream(v.kind);
    // A udp service has no hostnames; a tcp service's are its SNI names (none: every connection).
    const hostnames = v.kind === 'udp' ? [] : v.hostnames;
    if (!stream && hostnames.length === 0) ctx.addIssue({ code: 'custom', path: ['hostnames'], message: tr('oneHostname') });
    hostnames.forEach((h, i) => {
      const issue = hostnameIssue(h, !stream);
      if (issue) ctx.addIssue({ code: 'custom', path: ['hostnames', i, 'value'], message: issue });
    });
    const needsDomain = hostnames.some((h) => h.type !== 'custom');
    if (needsDomain && !v.domainId)
      ctx.addIssue({ code: 'custom', path: ['domainId'], message: tr('pickDomain') });
    if (stream && v.entrypoints.length === 0)
      ctx.addIssue({ code: 'custom', path: ['entrypoints'], message: tr('streamEntrypoint') });
    if (v.kind === 'tcp') {
      if (hostnames.length > 0 && v.tcpTls === 'none') ctx.addIssue({ code: 'custom', path: ['tcpTls'], message: tr('sniNeedsTls') });
      v.tcpAllowList.forEach((r, i) => {
        if (!isIpOrCidr(r.trim())) ctx.addIssue({ code: 'custom', path: ['tcpAllowList'], message: `${i + 1}: ${tr('ipOrCidr')}` });
      });
    }
    if (v.expiryType === 'at') {
      const t = new Date(v.expiryAt).getTime();
      if (!v.expiryAt || Number.isNaN(t)) ctx.addIssue({ code: 'custom', path: ['expiryAt'], message: tr('pickDateTime') });
    }
    if (v.expiryType === 'duration' && (!Number.isFinite(v.expiryAmount) || v.expiryAmount <= 0))
      ctx.addIssue({ code: 'custom', path: ['expiryAmount'], message: tr('positiveNumber') });
    const proxy = v.kind === 'proxy' || stream;
    if (proxy && v.targets.length === 0) ctx.addIssue({ code: 'custom', path: ['targets'], message: tr('oneTarget') });
    v.targets.forEach((t, i) => {
      // A redirect keeps its targets for later but needs none: blank rows are dropped.
      if (!t.host) {
        if (proxy) ctx.addIssue({ code: 'custom', path: ['targets', i, 'host'], message: tr('enterHost') });
      } else if (!isHostOrIp(t.host)) ctx.addIssue({ code: 'custom', path: ['targets', i, 'host'], message: tr('ipOrHostname') });
    });
    if (!proxy) {
      const url = redirectUrlIssue(v.redirectUrl, v.redirectKeepPath);
      if (url) ctx.addIssue({ code: 'custom', path: ['redirectUrl'], message: url });
    }
    if (v.hcOn) {
      if (!v.hcPath.startsWith('/') || !/^[A-Za-z0-9\-._~!$&*+,;=:@/%]+$/.test(v.hcPath))
        ctx.addIssue({ code: 'custom', path: ['hcPath'], message: tr('hcPath') });
      if (!Number.isInteger(v.hcInterval) || v.hcInterval < 1 || v.hcInterval > 3600)
        ctx.addIssue({ code: 'custom', path: ['hcInterval'], message: tr('hcInterval') });
      if (!Number.isInteger(v.hcTimeout) || v.hcTimeout < 1 || v.hcTimeout > 300 || v.hcTimeout > v.hcInterval)
        ctx.addIssue({ code: 'custom', path: ['hcTimeout'], message: tr('hcTimeout') });
      if (v.hcStatus !== 0 && !(Number.isInteger(v.hcStatus) && v.hcStatus >= 100 && v.hcStatus <= 599))
        ctx.addIssue({ code: 'custom', path: ['hcStatus'], message: tr('hcStatus') });
    }
    if (v.stickyOn && v.stickySameSite === 'none' && !v.stickySecure)
      ctx.addIssue({ code: 'custom', path: ['stickySameSite'], message: tr('sameSiteNone') });
    if (v.hstsMode === 'on') for (const i of hstsIssues(v)) ctx.addIssue({ code: 'custom', path: [i.path], message: i.message });
    const names = v.headers.map((h) => h.name.trim().toLowerCase());
    names.forEach((n, i) => {
      if (n && names.indexOf(n) !== i) ctx.addIssue({ code: 'custom', path: ['headers', i, 'name'], message: tr('duplicateHeader') });
    });
  });

export type ServiceFormValues = z.input<typeof serviceSchema>;
export type ServiceFormOutput = z.output<typeof serviceSchema>;

/** `datetime-local` wants local time without zone. */
function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function lbToForm(lb: LoadBalancer | undefined) {
  const hc = lb?.healthCheck;
  const st = lb?.sticky;
  return {
    hcOn: !!hc,
    hcPath: hc?.path ?? '/',
    hcInterval: hc?.intervalSeconds ?? 10,
    hcTimeout: hc?.timeoutSeconds ?? 5,
    hcStatus: hc?.status ?? 0,
    stickyOn: !!st,
    stickyCookie: st?.cookieName ?? '',
    stickySecure: st?.secure ?? false,
    stickyHttpOnly: st?.httpOnly ?? true,
    stickySameSite: st?.sameSite ?? ('' as const),
    toDial: lb?.timeouts.dialSeconds ?? 0,
    toResponseHeader: lb?.timeouts.responseHeaderSeconds ?? 0,
    toIdle: lb?.timeouts.idleConnSeconds ?? 0,
  };
}

function tcpToForm(tcp: Service['tcp'] | undefined) {
  const pp = String(tcp?.proxyProtocol ?? 0);
  return {
    tcpTls: (tcp?.tls || 'passthrough') as 'none' | 'passthrough' | 'terminate',
    tcpProxyProtocol: (pp === '1' || pp === '2' ? pp : '0') as '0' | '1' | '2',
    tcpAllowList: [...(tcp?.allowList ?? [])],
    tcpMaxConnections: tcp?.maxConnections ?? 0,
  };
}

export function emptyServiceForm(defaultDomainId = ''): ServiceFormValues {
  return {
    name: '',
    domainId: defaultDomainId,
    hostnames: [{ type: defaultDomainId ? 'subdomain' : 'custom', value: '' }],
    targets: [{ scheme: 'http', host: '', port: 80, weight: 1 }],
    passHostHeader: true,
    insecureSkipVerify: false,
    entrypoints: [],
    rules: [],
    middlewares: [],
    headers: [],
    kind: 'proxy',
    ...tcpToForm(undefined),
    redirectUrl: '',
    redirectPermanent: true,
    redirectKeepPath: true,
    maintenance: false,
    maintenanceMessage: '',
    launcherHidden: false,
    launcherDescription: '',
    launcherIcon: '',
    launcherGroup: '',
    launcherOrder: 0,
    ...lbToForm(undefined),
    httpsRedirect: 'inherit',
    hstsMode: 'inherit',
    ...hstsToFields(null),
    enabled: true,
    expiryType: 'default',
    expiryAt: '',
    expiryAmount: 1,
    expiryUnit: 86400,
  };
}

export function serviceToForm(s: Service): ServiceFormValues {
  const expiry = s.expiry ?? { type: 'never' as const };
  const dur = expiry.type === 'duration' ? splitDuration(expiry.seconds) : { amount: 1, unit: 86400 };
  return {
    name: s.name,
    domainId: s.domainId ?? '',
    hostnames: s.hostnames.map((h) => ({ type: h.type, value: h.type === 'apex' ? '' : (h.value ?? '') })),
    targets: s.targets.map((t) => ({ scheme: t.scheme, host: t.host, port: t.port, weight: t.weight || 1 })),
    passHostHeader: s.passHostHeader,
    insecureSkipVerify: s.insecureSkipVerify,
    entrypoints: [...(s.entrypoints ?? [])],
    rules: (s.rules ?? []).map((r) => ({ type: r.type, name: r.name ?? '', value: r.value })),
    middlewares: [...(s.middlewares ?? [])],
    headers: Object.entries(s.headers ?? {}).map(([name, value]) => ({ name, value })),
    kind: s.kind ?? 'proxy',
    ...tcpToForm(s.tcp),
    redirectUrl: s.redirect?.url ?? '',
    redirectPermanent: s.redirect?.url ? s.redirect.permanent : true,
    redirectKeepPath: s.redirect?.url ? s.redirect.keepPath : true,
    ...lbToForm(s.loadBalancer),
    maintenance: s.maintenance?.enabled ?? false,
    maintenanceMessage: s.maintenance?.message ?? '',
    launcherHidden: s.launcher?.hidden ?? false,
    launcherDescription: s.launcher?.description ?? '',
    launcherIcon: s.launcher?.icon ?? '',
    launcherGroup: s.launcher?.group ?? '',
    launcherOrder: s.launcher?.order ?? 0,
    httpsRedirect: s.https?.redirect == null ? 'inherit' : s.https.redirect ? 'on' : 'off',
    hstsMode: s.https?.hsts == null ? 'inherit' : s.https.hsts.maxAge > 0 ? 'on' : 'off',
    ...hstsToFields(s.https?.hsts),
    enabled: s.enabled,
    expiryType: expiry.type,
    expiryAt: expiry.type === 'at' ? toLocalInput(expiry.at) : '',
    expiryAmount: dur.amount,
    expiryUnit: dur.unit,
  };
}

function formToExpiry(v: ServiceFormOutput): Expiry | undefined {
  switch (v.expiryType) {
    case 'default':
      return undefined;
    case 'never':
      return { type: 'never' };
    case 'at':
      return { type: 'at', at: new Date(v.expiryAt).toISOString() };
    case 'duration':
      return { type: 'duration', seconds: Math.round(v.expiryAmount * v.expiryUnit) };
  }
}

export function formToInput(v: ServiceFormOutput): ServiceInput {
  const stream = isStream(v.kind);
  const hostnames: Hostname[] = (v.kind === 'udp' ? [] : v.hostnames).map((h) =>
    h.type === 'apex' ? { type: 'apex' } : { type: h.type, value: h.value.trim().toLowerCase() },
  );
  const usesDomain = hostnames.some((h) => h.type !== 'custom');
  const input: ServiceInput = {
    name: v.name.trim(),
    domainId: usesDomain || v.domainId ? v.domainId || null : null,
    hostnames,
    targets: v.targets
      .filter((t) => v.kind === 'proxy' || stream || t.host.trim())
      .map((t) => ({
        // A tcp or udp target is an address: the kind is its scheme.
        scheme: stream ? (v.kind as 'tcp' | 'udp') : t.scheme === 'tcp' || t.scheme === 'udp' ? 'http' : t.scheme,
        host: t.host.trim(),
        port: t.port,
        ...(t.weight !== 1 ? { weight: t.weight } : {}),
      })),
    loadBalancer: {
      healthCheck: v.hcOn && !stream ? { path: v.hcPath, intervalSeconds: v.hcInterval, timeoutSeconds: v.hcTimeout, status: v.hcStatus } : null,
      sticky: v.stickyOn && !stream ? { cookieName: v.stickyCookie, secure: v.stickySecure, httpOnly: v.stickyHttpOnly, sameSite: v.stickySameSite } : null,
      timeouts: { dialSeconds: v.toDial, responseHeaderSeconds: v.toResponseHeader, idleConnSeconds: v.toIdle },
    },
    passHostHeader: v.passHostHeader,
    insecureSkipVerify: v.targets.some((t) => t.scheme === 'https') ? v.insecureSkipVerify : false,
    entrypoints: v.entrypoints,
    rules: (stream ? [] : v.rules).map((r) =>
      r.type === 'header' || r.type === 'query'
        ? { type: r.type, name: r.name.trim(), value: r.value.trim() }
        : { type: r.type, value: r.value.trim() },
    ),
    middlewares: stream ? [] : v.middlewares,
    headers: stream ? {} : Object.fromEntries(v.headers.map((h) => [h.name.trim(), h.value])),
    kind: v.kind,
    tcp:
      v.kind === 'tcp'
        ? {
            tls: v.tcpTls,
            proxyProtocol: Number(v.tcpProxyProtocol),
            allowList: v.tcpAllowList.map((r) => r.trim()),
            maxConnections: v.tcpMaxConnections,
          }
        : null,
    // A proxy keeps a stored redirect for later, unless it is not a valid one.
    redirect: {
      url: v.kind === 'redirect' || !redirectUrlIssue(v.redirectUrl.trim(), v.redirectKeepPath) ? v.redirectUrl.trim() : '',
      permanent: v.redirectPermanent,
      keepPath: v.redirectKeepPath,
    },
    maintenance: { enabled: v.maintenance && !stream, message: v.maintenanceMessage },
    launcher: { hidden: v.launcherHidden, description: v.launcherDescription, icon: v.launcherIcon, group: v.launcherGroup, order: v.launcherOrder },
    https: {
      redirect: v.httpsRedirect === 'inherit' ? null : v.httpsRedirect === 'on',
      hsts: v.hstsMode === 'inherit' ? null : v.hstsMode === 'off' ? { maxAge: 0, includeSubdomains: false, preload: false } : fieldsToHsts(v),
    },
    enabled: v.enabled,
  };
  const expiry = formToExpiry(v);
  if (expiry) input.expiry = expiry;
  return input;
}

/** Server field paths → form paths, for the ones whose shape differs. */
export function mapServerPath(path: string, values: ServiceFormValues): string | null {
  if (path.startsWith('headers.')) {
    const name = path.slice('headers.'.length);
    const i = values.headers.findIndex((h) => h.name.trim() === name);
    return i >= 0 ? `headers.${i}.value` : 'headers';
  }
  if (path === 'redirect.url' || path === 'redirect') return 'redirectUrl';
  if (path === 'maintenance.message' || path === 'maintenance') return 'maintenanceMessage';
  const tcp: Record<string, string> = { 'tcp.tls': 'tcpTls', 'tcp.proxyProtocol': 'tcpProxyProtocol', 'tcp.maxConnections': 'tcpMaxConnections' };
  if (tcp[path]) return tcp[path];
  if (path === 'tcp.allowList' || /^tcp\.allowList\.\d+$/.test(path)) return 'tcpAllowList';
  const launcher: Record<string, string> = {
    'launcher.description': 'launcherDescription',
    'launcher.icon': 'launcherIcon',
    'launcher.group': 'launcherGroup',
    'launcher.order': 'launcherOrder',
  };
  if (launcher[path]) return launcher[path];
  const lb: Record<string, string> = {
    'loadBalancer.healthCheck.path': 'hcPath',
    'loadBalancer.healthCheck.intervalSeconds': 'hcInterval',
    'loadBalancer.healthCheck.timeoutSeconds': 'hcTimeout',
    'loadBalancer.healthCheck.status': 'hcStatus',
    'loadBalancer.sticky.cookieName': 'stickyCookie',
    'loadBalancer.sticky.sameSite': 'stickySameSite',
    'loadBalancer.timeouts.dialSeconds': 'toDial',
    'loadBalancer.timeouts.responseHeaderSeconds': 'toResponseHeader',
    'loadBalancer.timeouts.idleConnSeconds': 'toIdle',
  };
  if (lb[path]) return lb[path];
  const https = mapHttpsPath(path);
  if (https) return https;
  if (path === 'expiry' || path === 'expiry.type') return 'expiryType';
  if (path === 'expiry.at') return 'expiryAt';
  if (path === 'expiry.seconds') return 'expiryAmount';
  if (path === 'hostnames' || /^hostnames\.\d+$/.test(path)) return path === 'hostnames' ? 'hostnames.root' : `${path}.value`;
  if (path === 'targets') return 'targets.root';
  if (/^targets\.\d+$/.test(path)) return `${path}.host`;
  if (/^rules\.\d+$/.test(path) || /^rules\.\d+\.type$/.test(path)) return `${path.replace(/\.type$/, '')}.value`;
  if (/^(entrypoints|middlewares)\.\d+$/.test(path)) return path.split('.')[0]!;
  return path;
}

export const knownServicePaths = (p: string) =>
  /^(name|domainId|hostnames\.root|hostnames\.\d+\.(value|type)|targets\.root|targets\.\d+\.(scheme|host|port|weight)|hcPath|hcInterval|hcTimeout|hcStatus|stickyCookie|stickySameSite|toDial|toResponseHeader|toIdle|passHostHeader|insecureSkipVerify|entrypoints|middlewares|rules\.\d+\.(name|value)|headers|headers\.\d+\.(name|value)|kind|tcpTls|tcpProxyProtocol|tcpAllowList|tcpMaxConnections|redirectUrl|maintenanceMessage|httpsRedirect|hstsMaxAge|hstsIncludeSubdomains|hstsPreload|enabled|expiryType|expiryAt|expiryAmount)$/.test(p);
