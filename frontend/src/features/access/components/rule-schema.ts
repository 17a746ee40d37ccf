import i18n from '@/lib/i18n';
import { z } from 'zod';
import { isIpOrCidr } from '@/lib/netaddr';
import type { AccessAction, AccessRule, DefaultAction, HeaderMatchType, PathMatchType } from '@/lib/api-types';

export const MAX_RULES = 100;
const MAX_NOTE = 200;

const pathSchema = z
  .object({ type: z.enum(['exact', 'prefix', 'glob', 'regex']), value: z.string() })
  .superRefine((p, ctx) => {
    const v = p.value.trim();
    if (!v) return ctx.addIssue({ code: 'custom', path: ['value'], message: i18n.t('access:schema.enterPath') });
    if (p.type !== 'regex' && !v.startsWith('/')) ctx.addIssue({ code: 'custom', path: ['value'], message: i18n.t('access:schema.pathSlash') });
    if (p.type !== 'regex' && p.type !== 'glob' && v.includes('*'))
      ctx.addIssue({ code: 'custom', path: ['value'], message: i18n.t('access:schema.useGlob') });
  });

const headerSchema = z
  .object({ name: z.string(), match: z.enum(['present', 'equals', 'contains']), value: z.string() })
  .superRefine((h, ctx) => {
    if (!h.name.trim()) ctx.addIssue({ code: 'custom', path: ['name'], message: i18n.t('access:schema.enterHeaderName') });
    else if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(h.name.trim()))
      ctx.addIssue({ code: 'custom', path: ['name'], message: i18n.t('access:schema.badHeaderName') });
    if (h.match !== 'present' && !h.value) ctx.addIssue({ code: 'custom', path: ['value'], message: i18n.t('access:schema.enterValue') });
  });

const ruleSchema = z.object({
  action: z.enum(['allow', 'deny', 'authenticate']),
  note: z.string().max(MAX_NOTE, { error: () => i18n.t('access:schema.atMostChars', { max: MAX_NOTE }) }),
  paths: z.array(pathSchema),
  methods: z.array(z.string()),
  sources: z.array(z.string()).superRefine((list, ctx) => {
    const bad = list.find((s) => s !== 'private' && s !== 'loopback' && !isIpOrCidr(s));
    if (bad !== undefined) ctx.addIssue({ code: 'custom', message: i18n.t('access:schema.badSource', { value: bad }) });
  }),
  countries: z.array(z.string()),
  headers: z.array(headerSchema),
  // Identity conditions: who the request comes from (a person of the directory).
  people: z.array(z.string()),
  groups: z.array(z.string()),
  secondFactor: z.boolean(),
});

export const rulesFormSchema = z.object({
  defaultAction: z.enum(['', 'allow', 'deny', 'authenticate']),
  rules: z.array(ruleSchema).max(MAX_RULES, { error: () => i18n.t('access:schema.atMostRules', { max: MAX_RULES }) }),
});

export type RuleValues = z.infer<typeof ruleSchema>;
export type RulesFormValues = z.infer<typeof rulesFormSchema>;

/**
 * A new rule starts as authenticate: by itself it cannot open anything (it asks for the service's
 * sign-in, which is what a protected service does anyway). An allow that should open something is
 * a deliberate choice, and one without conditions is confirmed on save.
 */
export function emptyRule(action: AccessAction = 'authenticate'): RuleValues {
  return { action, note: '', paths: [], methods: [], sources: [], countries: [], headers: [], people: [], groups: [], secondFactor: false };
}

/** Wire rule (conditions omitted when empty) → form rule (every list present). */
export function ruleToForm(r: AccessRule): RuleValues {
  return {
    action: r.action,
    note: r.note ?? '',
    paths: (r.paths ?? []).map((p) => ({ type: p.type, value: p.value })),
    methods: [...(r.methods ?? [])],
    sources: [...(r.sources ?? [])],
    countries: [...(r.countries ?? [])],
    headers: (r.headers ?? []).map((h) => ({ name: h.name, match: h.match ?? 'present', value: h.value ?? '' })),
    people: [...(r.people ?? [])],
    groups: [...(r.groups ?? [])],
    secondFactor: r.secondFactor ?? false,
  };
}

export function formToRule(r: RuleValues): AccessRule {
  const out: AccessRule = { action: r.action };
  const note = r.note.trim();
  if (note) out.note = note;
  if (r.paths.length) out.paths = r.paths.map((p) => ({ type: p.type as PathMatchType, value: p.value.trim() }));
  if (r.methods.length) out.methods = r.methods;
  if (r.sources.length) out.sources = r.sources;
  if (r.countries.length) out.countries = r.countries;
  if (r.headers.length)
    out.headers = r.headers.map((h) => ({
      name: h.name.trim(),
      match: h.match as HeaderMatchType,
      ...(h.match === 'present' ? {} : { value: h.value }),
    }));
  if (r.people.length) out.people = r.people;
  if (r.groups.length) out.groups = r.groups;
  if (r.secondFactor) out.secondFactor = true;
  return out;
}

export function toFormValues(rules: AccessRule[], defaultAction: DefaultAction = ''): RulesFormValues {
  return { defaultAction, rules: rules.map(ruleToForm) };
}

export function toDraft(v: RulesFormValues): { defaultAction: DefaultAction; rules: AccessRule[] } {
  return { defaultAction: v.defaultAction, rules: v.rules.map(formToRule) };
}

/**
 * Server paths → form paths. Items of string lists (methods, sources, countries) are edited
 * as one tag input, so `rules.0.sources.1` lands on `rules.0.sources`. The tester's
 * `draft.rules[...]` errors belong to the editor too.
 */
export function mapRulePath(path: string): string | null {
  const p = path.replace(/^draft\./, '');
  const m = /^(rules\.\d+\.(?:methods|sources|countries|people|groups))\.\d+$/.exec(p);
  if (m) return m[1]!;
  return p;
}

const known = /^(defaultAction|rules|rules\.\d+(\.(action|note|methods|sources|countries|paths|headers|people|groups|secondFactor))?|rules\.\d+\.paths\.\d+\.(type|value)|rules\.\d+\.headers\.\d+\.(name|match|value))$/;
export const isKnownRulePath = (p: string) => known.test(p);

const protections = ['basicAuth', 'sso', 'sharedLinks', 'tokens'] as const;
/** The API names protections by their JSON keys (basicAuth, sso, sharedLinks, tokens). */
export const protectionLabel = (p: string) =>
  (protections as readonly string[]).includes(p) ? i18n.t(`access:protections.${p as (typeof protections)[number]}`) : p;

export const accessActions: AccessAction[] = ['allow', 'deny', 'authenticate'];
/** An action's name in the person's language. */
export const actionLabel = (a: AccessAction) => i18n.t(`access:actions.${a}`);

/** One line describing a rule's conditions, for collapsed rules and the tester's steps. */
export function summarizeRule(r: RuleValues): string {
  const parts: string[] = [];
  const t = i18n.getFixedT(null, 'access', 'summary');
  const or = t('or');
  if (r.paths.length) parts.push(r.paths.map((p) => t('path', { type: p.type, value: p.value || '…' })).join(or));
  if (r.methods.length) parts.push(r.methods.join(', '));
  if (r.sources.length) parts.push(t('from', { list: r.sources.join(', ') }));
  if (r.countries.length) parts.push(t('in', { list: r.countries.join(', ') }));
  if (r.headers.length)
    parts.push(
      r.headers
        .map((h) =>
          h.match === 'present'
            ? t('headerPresent', { name: h.name || '…' })
            : t(h.match === 'equals' ? 'headerEquals' : 'headerContains', { name: h.name || '…', value: h.value }),
        )
        .join(t('and')),
    );
  if (r.people.length) parts.push(t('person', { list: r.people.join(or) }));
  if (r.groups.length) parts.push(t('group', { list: r.groups.join(or) }));
  if (r.secondFactor) parts.push(t('secondFactor'));
  return parts.length ? parts.join(' · ') : t('everyRequest');
}

/** An allow rule with no condition lets every request through without signing in. */
export function allowsEveryone(r: RuleValues): boolean {
  return (
    r.action === 'allow' &&
    r.paths.length + r.methods.length + r.sources.length + r.countries.length + r.headers.length + r.people.length + r.groups.length === 0 &&
    !r.secondFactor
  );
}
