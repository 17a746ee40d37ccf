import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
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
import { protectionLabel } from './rule-schema';

const schema = z.object({
  method: z.string().min(1, 'Pick a method'),
  url: z.string().trim().min(1, 'Enter a URL or a path'),
  clientAddress: z.string().trim(),
  person: z.string().trim().max(64, 'At most 64 characters'),
  secondFactor: z.boolean(),
  headers: z.array(z.object({ name: z.string().trim().min(1, 'Enter a name'), value: z.string() })),
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
      <CardHeader title="Rule tester" description="How the rules in the editor (saved or not) and the saved global rules decide a request." />
      <form className="card-body stack" onSubmit={onSubmit} noValidate aria-label="Rule tester">
        <div className="row-fields">
          <div className="rf-side" style={{ width: 130, flex: 'none' }}>
            <Field label="Method" error={errors.method?.message}>
              <select className="select" {...register('method')}>
                {[...commonMethods, ...webdavMethods].map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </Field>
          </div>
          <div className="rf-main">
            <Field label="URL" error={errors.url?.message}>
              <input className="input mono" placeholder="https://cloud.example.com/remote.php/dav" autoCapitalize="off" spellCheck={false} {...register('url')} />
            </Field>
          </div>
        </div>
        <Field label="Client address" optional error={errors.clientAddress?.message} hint="Unknown when empty: address and country conditions do not match.">
          <input className="input mono" placeholder="203.0.113.7" autoCapitalize="off" spellCheck={false} {...register('clientAddress')} />
        </Field>
        <Field
          label="Person"
          optional
          error={errors.person?.message}
          hint="A username of the directory: their groups are read from it. Empty for a request without a signed-in person (anonymous, basic auth, a machine token)."
        >
          <input className="input" placeholder="ann" autoCapitalize="off" spellCheck={false} {...register('person')} />
        </Field>
        <label className="checkbox">
          <input type="checkbox" {...register('secondFactor')} />
          <span className="checkbox-text">
            <span>Signed in with a second factor</span>
            <span className="field-hint">Or a passkey. Only counts with a person.</span>
          </span>
        </label>
        <div className="stack-sm">
          <span className="field-label">
            Headers <span className="optional">(optional)</span>
          </span>
          {headers.fields.map((f, i) => (
            <div key={f.id} className="stack-sm">
              <div className="row-fields">
                <div className="rf-side" style={{ flex: '1 1 40%' }}>
                  <label className="sr-only" htmlFor={`tester-h-${i}-name`}>
                    Test header {i + 1} name
                  </label>
                  <input id={`tester-h-${i}-name`} className="input mono" placeholder="User-Agent" aria-invalid={errors.headers?.[i]?.name ? true : undefined} {...register(`headers.${i}.name`)} />
                </div>
                <div className="rf-main">
                  <label className="sr-only" htmlFor={`tester-h-${i}-value`}>
                    Test header {i + 1} value
                  </label>
                  <input id={`tester-h-${i}-value`} className="input mono" placeholder="Nextcloud-android" {...register(`headers.${i}.value`)} />
                </div>
                <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={`Remove test header ${i + 1}`} onClick={() => headers.remove(i)} />
              </div>
              {errors.headers?.[i]?.name?.message ? <FieldErrorText message={errors.headers[i].name.message} /> : null}
            </div>
          ))}
          {errors.root?.headers?.message ? <FieldErrorText message={errors.root.headers.message} /> : null}
          <div>
            <Button size="sm" icon="plus" onClick={() => headers.append({ name: '', value: '' })}>
              Add header
            </Button>
          </div>
        </div>
        <div>
          <Button type="submit" variant="primary" icon="play" loading={test.isPending}>
            Test request
          </Button>
        </div>
        {draftBroken ? (
          <Alert tone="warning" title="The rules in the editor have problems">
            Fix the highlighted fields in the rules, then test again.
          </Alert>
        ) : null}
      </form>
      {result ? <TestResult result={result} /> : null}
    </Card>
  );
}

function stepLabel(s: RuleTestStep) {
  return `${s.scope === 'global' ? 'Global rule' : 'Rule'} ${s.index + 1}`;
}

function TestResult({ result }: { result: RuleTestResult }) {
  return (
    <section className={`test-result decision-${result.decision}`} aria-label="Test result" aria-live="polite">
      <div className="row">
        <DecisionBadge decision={result.decision} large />
        <span className="small muted">
          {result.scope === 'default' ? 'by the default action' : `by ${result.scope === 'global' ? 'global rule' : 'rule'} ${(result.index ?? 0) + 1}`}
        </span>
      </div>
      <p>{result.reason}</p>
      {result.person ? (
        <p className="small">
          As <strong>{result.person.username}</strong>
          {result.person.groups.length ? `, in ${result.person.groups.join(', ')}` : ', in no group'}
          {result.person.secondFactor ? ', signed in with a second factor' : ''}.
        </p>
      ) : null}
      <dl className="kv small">
        <dt>Path as read</dt>
        <dd>
          <code>{result.path}</code>{' '}
          {result.ambiguous ? (
            <Badge tone="warning" icon="alert" title="The path can be read in more than one way: allow rules never match it">
              ambiguous
            </Badge>
          ) : null}
        </dd>
        {result.country ? (
          <>
            <dt>Country</dt>
            <dd>{result.country}</dd>
          </>
        ) : null}
        {result.decision === 'authenticate' ? (
          <>
            <dt>Accepted sign-ins</dt>
            <dd>{result.protections?.length ? result.protections.map(protectionLabel).join(', ') : <span className="warn-text">none: the request is refused</span>}</dd>
          </>
        ) : null}
      </dl>
      {result.ambiguous ? (
        <p className="small muted">Allow rules never match an ambiguous path (such as /public/../admin); deny and authenticate rules match every reading of it.</p>
      ) : null}
      {result.warnings?.length ? (
        <Alert tone="warning" title="Worth knowing">
          <ul className="plain-list">
            {result.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <div className="stack-sm">
        <h3>Steps</h3>
        {!result.steps?.length ? (
          <p className="small muted">No rules to check: the default action decided.</p>
        ) : (
          <ol className="steps" aria-label="Steps">
            {result.steps.map((s, i) => (
              <li key={i} className={s.matched ? 'matched' : undefined}>
                <span className={`step-mark${s.matched ? ' on' : ''}`} aria-hidden="true">
                  {s.matched ? '✓' : '–'}
                </span>
                <div className="grow">
                  <div>
                    <strong>{stepLabel(s)}</strong> <span className="muted">({s.action})</span>
                    {s.note ? <span className="muted"> · {s.note}</span> : null}
                    <span className="sr-only">{s.matched ? ': matched' : ': did not match'}</span>
                  </div>
                  <div className="small muted">{s.reason}</div>
                </div>
                {s.matched ? <Badge tone="primary">matched</Badge> : null}
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
