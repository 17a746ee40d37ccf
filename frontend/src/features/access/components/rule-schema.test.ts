import { describe, expect, it } from 'vitest';
import { allowsEveryone, formToRule, isKnownRulePath, mapRulePath, ruleToForm, rulesFormSchema, summarizeRule } from './rule-schema';
import { toFormPath } from '@/lib/form-errors';

describe('mapRulePath', () => {
  it.each([
    ['rules[2].paths[0].value', 'rules.2.paths.0.value'],
    ['rules[0].sources[1]', 'rules.0.sources'],
    ['rules[3].methods[0]', 'rules.3.methods'],
    ['rules[1].countries', 'rules.1.countries'],
    ['rules[1].headers[0].name', 'rules.1.headers.0.name'],
    ['draft.rules[4].note', 'rules.4.note'],
    ['defaultAction', 'defaultAction'],
  ])('%s → %s', (server, form) => {
    const p = mapRulePath(toFormPath(server));
    expect(p).toBe(form);
    expect(isKnownRulePath(p!)).toBe(true);
  });

  it('leaves fields the editor does not have to the form alert', () => {
    expect(isKnownRulePath('url')).toBe(false);
    expect(isKnownRulePath('rules.0.bogus')).toBe(false);
  });
});

describe('rule conversion', () => {
  it('fills missing lists for the form and drops empty ones for the wire', () => {
    const wire = { action: 'allow' as const, note: 'DAV', paths: [{ type: 'prefix' as const, value: '/dav' }], headers: [{ name: 'User-Agent' }] };
    const form = ruleToForm(wire);
    expect(form).toEqual({
      action: 'allow',
      note: 'DAV',
      paths: [{ type: 'prefix', value: '/dav' }],
      methods: [],
      sources: [],
      countries: [],
      headers: [{ name: 'User-Agent', match: 'present', value: '' }],
      people: [],
      groups: [],
      secondFactor: false,
    });
    expect(formToRule(form)).toEqual({ ...wire, headers: [{ name: 'User-Agent', match: 'present' }] });
    expect(summarizeRule(form)).toBe('prefix /dav · User-Agent present');
    expect(summarizeRule(ruleToForm({ action: 'deny' }))).toBe('every request');
  });

  it('keeps identity conditions through the form, so editing a rule never drops them', () => {
    const wire = { action: 'allow' as const, paths: [{ type: 'prefix' as const, value: '/admin' }], groups: ['admins'], people: ['ann'], secondFactor: true };
    const form = ruleToForm(wire);
    expect(formToRule(form)).toEqual(wire);
    expect(summarizeRule(form)).toBe('prefix /admin · person ann · group admins · second factor');
    expect(allowsEveryone(ruleToForm({ action: 'allow', groups: ['family'] }))).toBe(false);
    expect(mapRulePath('rules.2.groups.0')).toBe('rules.2.groups');
    expect(isKnownRulePath('rules.2.groups')).toBe(true);
  });
});

describe('rule sources', () => {
  it.each([
    [['10.0.0.0/8', '::1', 'private', 'loopback'], true],
    [['10.0.0.300/8'], false],
    [['192.168.1.0/33'], false],
    [['lan'], false],
  ])('%j valid: %s', (sources, ok) => {
    const rule = { ...ruleToForm({ action: 'allow' }), sources };
    expect(rulesFormSchema.safeParse({ defaultAction: '', rules: [rule] }).success).toBe(ok);
  });
});
