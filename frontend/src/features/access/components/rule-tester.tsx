import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
import { Trans, useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, FieldErrorText } from '@/components/ui/field';
import { commonMethods, webdavMethods } from '@/components/ui/method-picker';
import { isApiError } from '@/lib/api-client';
import type { RuleTestInput, RuleTestResult, RuleTestStep } from '@/lib/api-types';
import { applyServerErrors } from '@/lib/form-errors';
import { useTestRules } from '../api/access';
import { DecisionBadge } from './decision';
import { actionLabel, protectionLabel } from './rule-schema';

const schema = z.object({
  method: z.string().min(1, { error: () => i18n.t('access:tester.pickMethod') }),
  url: z.string().trim().min(1, { error: () => i18n.t('access:tester.enterUrl') }),
  clientAddress: z.string().trim(),
  person: z.string().trim().max(64, { error: () => i18n.t('access:schema.atMostChars', { max: 64 }) }),
  secondFactor: z.boolean(),
  headers: z.array(z.object({ name: z.string().trim().min(1, { error: () => i18n.t('access:tester.enterName') }), value: z.string() })),
});
type Values = z.infer<typeof schema>;

type Props = {
  serviceId: string;
  /** The rules currently in the editor (saved or not). */
  getDraft: () => NonNullable<RuleTestInput['draft']>;
  /** Problems found in the draft rules, for the editor to show on its fields. */
  onDraftError: (e: unknown) => void;
};

/** Asks the panel how the rules in the editor would decide one request. */
export function RuleTester({ serviceId, getDraft, onDraftError }: Props) {
  const { t } = useTranslation('access');
  const test = useTestRules(serviceId);
  const [result, setResult] = useState<RuleTestResult | null>(null);
  const [draftBroken, setDraftBroken] = useState(false);
  const { register, control, handleSubmit, formState, setError } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { method: 'GET', url: '/', clientAddress: '', person: '', secondFactor: false, headers: [] },
  });
  const headers = useFieldArray({ control, name: 'headers' });
  const errors = formState.errors;

  const onSubmit = handleSubmit(async (v) => {
    setDraftBroken(false);
    const body: RuleTestInput = { method: v.method, url: v.url, draft: getDraft() };
    if (v.clientAddress) body.clientAddress = v.clientAddress;
    if (v.person) {
      body.person = v.person;
      body.secondFactor = v.secondFactor;
    }
    if (v.headers.length) body.headers = Object.fromEntries(v.headers.map((h) => [h.name, h.value]));
    try {
      setResult(await test.mutateAsync(body));
    } catch (e) {
      setResult(null);
      applyServerErrors(e, setError, {
        map: (p) => (p.startsWith('draft') ? null : p.startsWith('headers') ? 'root.headers' : p),
        known: (p) => ['method', 'url', 'clientAddress', 'person', 'secondFactor', 'root.headers'].includes(p),
      });
      if (isApiError(e) && e.fields.some((f) => f.field.startsWith('draft'))) {
        setDraftBroken(true);
        onDraftError(e);
      }
    }
  });

  return (
    <Card>
      <CardHeader title={t('tester.title')} description={t('tester.description')} />
      <form className="card-body stack" onSubmit={onSubmit} noValidate aria-label={t('tester.title')}>
        <div className="row-fields">
          <div className="rf-side" style={{ width: 130, flex: 'none' }}>
            <Field label={t('tester.method')} error={errors.method?.message}>
              <select className="select" {...register(`method`)}>
                {[...commonMethods, ...webdavMethods].map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </Field>
          </div>
          <div className="rf-main">
            <Field label={t('tester.url')} error={errors.url?.message}>
              <input className="input mono" placeholder={t('tester.urlPlaceholder')} autoCapitalize="off" spellCheck={false} {...register(`url`)} />
            </Field>
          </div>
        </div>
        <Field label={t('log.clientAddress')} optional error={errors.clientAddress?.message} hint={t('tester.clientHint')}>
          <input className="input mono" placeholder="203.0.113.7" autoCapitalize="off" spellCheck={false} {...register(`clientAddress`)} />
        </Field>
        <Field
          label={t('tester.person')}
          optional
          error={errors.person?.message}
          hint={t('tester.personHint')}
        >
          <input className="input" placeholder={t('tester.personPlaceholder')} autoCapitalize="off" spellCheck={false} {...register(`person`)} />
        </Field>
        <label className="checkbox">
          <input type="checkbox" {...register(`secondFactor`)} />
          <span className="checkbox-text">
            <span>{t('identity.secondFactor')}</span>
            <span className="field-hint">{t('tester.secondFactorHint')}</span>
          </span>
        </label>
        <div className="stack-sm">
          <span className="field-label">
            <Trans t={t} i18nKey="headers.label" components={{ opt: <span className="optional" /> }} />
          </span>
          {headers.fields.map((f, i) => (
            <div key={f.id} className="stack-sm">
              <div className="row-fields">
                <div className="rf-side" style={{ flex: '1 1 40%' }}>
                  <label className="sr-only" htmlFor={`tester-h-${i}-name`}>
                    {t('tester.headerName', { i: i + 1 })}
                  </label>
                  <input id={`tester-h-${i}-name`} className="input mono" placeholder={t('headers.namePlaceholder')} aria-invalid={errors.headers?.[i]?.name ? true : undefined} {...register(`headers.${i}.name`)} />
                </div>
                <div className="rf-main">
                  <label className="sr-only" htmlFor={`tester-h-${i}-value`}>
                    {t('tester.headerValue', { i: i + 1 })}
                  </label>
                  <input id={`tester-h-${i}-value`} className="input mono" placeholder={t('tester.headerValuePlaceholder')} {...register(`headers.${i}.value`)} />
                </div>
                <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={t('tester.removeHeader', { i: i + 1 })} onClick={() => headers.remove(i)} />
              </div>
              {errors.headers?.[i]?.name?.message ? <FieldErrorText message={errors.headers[i].name.message} /> : null}
            </div>
          ))}
          {errors.root?.headers?.message ? <FieldErrorText message={errors.root.headers.message} /> : null}
          <div>
            <Button size="sm" icon="plus" onClick={() => headers.append({ name: '', value: '' })}>
              {t('headers.add')}
            </Button>
          </div>
        </div>
        <div>
          <Button type="submit" variant="primary" icon="play" loading={test.isPending}>
            {t('tester.run')}
          </Button>
        </div>
        {draftBroken ? (
          <Alert tone="warning" title={t('tester.draftBroken')}>
            {t('tester.draftBrokenText')}
          </Alert>
        ) : null}
      </form>
      {result ? <TestResult result={result} /> : null}
    </Card>
  );
}

const stepMarks = { matched: '✓', missed: '–' };

function stepLabel(s: RuleTestStep) {
  return s.scope === 'global' ? i18n.t('access:tester.globalRule', { n: s.index + 1 }) : i18n.t('access:tester.rule', { n: s.index + 1 });
}

function TestResult({ result }: { result: RuleTestResult }) {
  const { t } = useTranslation(['access', 'common']);
  return (
    <section className={`test-result decision-${result.decision}`} aria-label={t('tester.result')} aria-live="polite">
      <div className="row">
        <DecisionBadge decision={result.decision} large />
        <span className="small muted">
          {result.scope === 'default' ? t('tester.byDefault') : result.scope === 'global' ? t('tester.byGlobalRule', { n: (result.index ?? 0) + 1 }) : t('tester.byRule', { n: (result.index ?? 0) + 1 })}
        </span>
      </div>
      <p>{result.reason}</p>
      {result.person ? (
        <p className="small">
          <Trans
            t={t}
            i18nKey={
              result.person.groups.length
                ? result.person.secondFactor
                  ? 'tester.asInGroupsSecond'
                  : 'tester.asInGroups'
                : result.person.secondFactor
                  ? 'tester.asNoGroupSecond'
                  : 'tester.asNoGroup'
            }
            values={{ name: result.person.username, groups: result.person.groups.join(', ') }}
            components={{ strong: <strong /> }}
          />
        </p>
      ) : null}
      <dl className="kv small">
        <dt>{t('tester.pathRead')}</dt>
        <dd>
          <code>{result.path}</code>{' '}
          {result.ambiguous ? (
            <Badge tone="warning" icon="alert" title={t('tester.ambiguousTitle')}>
              {t('tester.ambiguous')}
            </Badge>
          ) : null}
        </dd>
        {result.country ? (
          <>
            <dt>{t('tester.country')}</dt>
            <dd>{result.country}</dd>
          </>
        ) : null}
        {result.decision === 'authenticate' ? (
          <>
            <dt>{t('tester.accepted')}</dt>
            <dd>{result.protections?.length ? result.protections.map(protectionLabel).join(', ') : <span className="warn-text">{t('tester.noneRefused')}</span>}</dd>
          </>
        ) : null}
      </dl>
      {result.ambiguous ? (
        <p className="small muted">{t('tester.ambiguousText')}</p>
      ) : null}
      {result.warnings?.length ? (
        <Alert tone="warning" title={t('tester.worthKnowing')}>
          <ul className="plain-list">
            {result.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <div className="stack-sm">
        <h3>{t('tester.steps')}</h3>
        {!result.steps?.length ? (
          <p className="small muted">{t('tester.noSteps')}</p>
        ) : (
          <ol className="steps" aria-label={t('tester.steps')}>
            {result.steps.map((s, i) => (
              <li key={i} className={s.matched ? 'matched' : undefined}>
                <span className={`step-mark${s.matched ? ' on' : ''}`} aria-hidden="true">
                  {s.matched ? stepMarks.matched : stepMarks.missed}
                </span>
                <div className="grow">
                  <div>
                    <strong>{stepLabel(s)}</strong> <span className="muted">({actionLabel(s.action)})</span>
                    {s.note ? <span className="muted"> · {s.note}</span> : null}
                    <span className="sr-only">{s.matched ? t('tester.srMatched') : t('tester.srNotMatched')}</span>
                  </div>
                  <div className="small muted">{s.reason}</div>
                </div>
                {s.matched ? <Badge tone="primary">{t('tester.matched')}</Badge> : null}
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
