import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Field, FieldErrorText } from '@/components/ui/field';
import { Icon } from '@/components/ui/icons';
import { MethodPicker } from '@/components/ui/method-picker';
import { ReadOnlyFieldset } from '@/components/ui/read-only';
import { TagInput } from '@/components/ui/tag-input';
import { useCanWrite } from '@/lib/api/system';
import { actionLabels, allowsEveryone, summarizeRule, type RulesFormValues } from './rule-schema';

type Props = {
  index: number;
  count: number;
  fieldId: string;
  open: boolean;
  geoip: boolean;
  onToggle: () => void;
  onMove: (dir: -1 | 1) => void;
  onRemove: () => void;
};

const sourcePattern = /^([0-9a-f:.]+(\/\d{1,3})?|private|loopback)$/i;

/** One rule: a header row that is always visible (position, action, summary, tools) and its conditions. */
export function RuleCard({ index, count, fieldId, open, geoip, onToggle, onMove, onRemove }: Props) {
  const { register, control, formState } = useFormContext<RulesFormValues>();
  const rule = useWatch({ control, name: `rules.${index}` });
  const errors = formState.errors.rules?.[index];
  const n = index + 1;
  const bodyId = `rule-body-${fieldId}`;
  const hasErrors = !!errors;
  const expanded = open || hasErrors;
  const canWrite = useCanWrite();
  return (
    <li className={`rule-item rule-${rule?.action ?? 'allow'}`} aria-label={`Rule ${n}`}>
      <div className="rule-head">
        <span className="rule-num" aria-hidden="true">
          {n}
        </span>
        <div className="rule-action">
          <label className="sr-only" htmlFor={`rule-${fieldId}-action`}>
            Rule {n} action
          </label>
          <select id={`rule-${fieldId}-action`} className="select" disabled={!canWrite} {...register(`rules.${index}.action`)}>
            {Object.entries(actionLabels).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </div>
        {hasErrors ? (
          <span className="field-error" style={{ alignSelf: 'center' }}>
            <Icon name="alert" size={13} />
            <span>Check this rule</span>
          </span>
        ) : null}
        {canWrite ? (
          <div className="rule-tools">
            <Button id={`rule-${fieldId}-up`} size="sm" variant="ghost" iconOnly icon="chevronUp" aria-label={`Move rule ${n} up`} title="Move up" disabled={index === 0} onClick={() => onMove(-1)} />
            <Button id={`rule-${fieldId}-down`} size="sm" variant="ghost" iconOnly icon="chevronDown" aria-label={`Move rule ${n} down`} title="Move down" disabled={index === count - 1} onClick={() => onMove(1)} />
            <Button size="sm" variant="ghost" iconOnly icon="trash" aria-label={`Remove rule ${n}`} title="Remove" onClick={onRemove} />
          </div>
        ) : null}
        <button type="button" className="rule-summary" onClick={onToggle} aria-expanded={expanded} aria-controls={bodyId}>
          <span className="rule-note-row">
            <span className="rule-note">{rule?.note ? rule.note : <span className="faint">No note</span>}</span>
            <span className="rule-toggle small">
              <Icon name={expanded ? 'chevronUp' : 'chevronDown'} size={14} />
              {expanded ? 'Close' : canWrite ? 'Edit' : 'Show'}
            </span>
          </span>
          <span className="small muted mono rule-when">when {rule ? summarizeRule(rule) : '…'}</span>
        </button>
        {rule && allowsEveryone(rule) ? (
          <p className="field-error small" style={{ gridColumn: '1 / -1', margin: 0 }}>
            <Icon name="alert" size={13} />
            <span>Allows every request without signing in: anyone on the internet gets through. Add a condition, or choose another action.</span>
          </p>
        ) : null}
      </div>
      {expanded ? (
        <div className="rule-body" id={bodyId}>
          <ReadOnlyFieldset readOnly={!canWrite}>
            <Field label={`Rule ${n} note`} optional error={errors?.note?.message} hint="Why the rule exists; shown in the tester and the log.">
              <input className="input" placeholder="Nextcloud sync clients" {...register(`rules.${index}.note`)} />
            </Field>
            <PathsEditor index={index} />
            <div className="field">
              <span className="field-label">
                Methods <span className="optional">(any when none is picked)</span>
              </span>
              <Controller
                control={control}
                name={`rules.${index}.methods`}
                render={({ field }) => (
                  <MethodPicker value={field.value} onChange={field.onChange} label={`Rule ${n} methods`} invalid={!!errors?.methods} />
                )}
              />
              {errors?.methods?.message ? <FieldErrorText message={errors.methods.message} /> : null}
            </div>
            <Field
              label={`Rule ${n} client addresses`}
              optional
              error={errors?.sources?.message}
              hint="IP addresses or CIDR ranges; private = LAN and link-local ranges, loopback = this machine. Any address when empty."
            >
              <Controller
                control={control}
                name={`rules.${index}.sources`}
                render={({ field }) => (
                  <TagInput
                    value={field.value}
                    onChange={field.onChange}
                    placeholder="192.168.1.0/24"
                    suggestions={['private', 'loopback']}
                    suggestionLabel="Address shortcuts"
                    validate={(v) => (sourcePattern.test(v) ? null : 'Enter an IP address, a CIDR, private or loopback')}
                  />
                )}
              />
            </Field>
            <CountriesField index={index} geoip={geoip} />
            <HeadersEditor index={index} />
            <IdentityFields index={index} />
          </ReadOnlyFieldset>
        </div>
      ) : null}
    </li>
  );
}

const pathHints = {
  exact: 'the whole path, exactly',
  prefix: 'whole segments: /api matches /api and /api/x, not /apix',
  glob: '* is any characters within one segment; a ** segment is any number of segments',
  regex: 'RE2 syntax, anchored to the whole path',
} as const;

function PathsEditor({ index }: { index: number }) {
  const { register, control, formState } = useFormContext<RulesFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: `rules.${index}.paths` });
  const paths = useWatch({ control, name: `rules.${index}.paths` });
  const errors = formState.errors.rules?.[index]?.paths;
  const n = index + 1;
  const canWrite = useCanWrite();
  return (
    <div className="stack-sm">
      <span className="field-label">
        Paths <span className="optional">(any path when empty)</span>
      </span>
      {fields.map((f, j) => {
        const e = errors?.[j];
        const type = paths?.[j]?.type ?? 'prefix';
        const errId = `rule-${index}-path-${j}-msg`;
        return (
          <div key={f.id} className="stack-sm">
            <div className="row-fields">
              <div className="rf-side" style={{ width: 120, flex: 'none' }}>
                <label className="sr-only" htmlFor={`${errId}-type`}>
                  Rule {n} path {j + 1} type
                </label>
                <select id={`${errId}-type`} className="select" aria-invalid={e?.type ? true : undefined} {...register(`rules.${index}.paths.${j}.type`)}>
                  <option value="prefix">Prefix</option>
                  <option value="exact">Exact</option>
                  <option value="glob">Glob</option>
                  <option value="regex">Regex</option>
                </select>
              </div>
              <div className="rf-main">
                <label className="sr-only" htmlFor={`${errId}-value`}>
                  Rule {n} path {j + 1}
                </label>
                <input
                  id={`${errId}-value`}
                  className="input mono"
                  placeholder={type === 'regex' ? '^/api/v[0-9]+/.*$' : type === 'glob' ? '/files/*/raw' : '/remote.php/dav'}
                  aria-invalid={e?.value ? true : undefined}
                  aria-describedby={errId}
                  autoCapitalize="off"
                  spellCheck={false}
                  {...register(`rules.${index}.paths.${j}.value`)}
                />
              </div>
              {canWrite ? <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={`Remove rule ${n} path ${j + 1}`} onClick={() => remove(j)} /> : null}
            </div>
            <div id={errId}>
              {e?.value?.message ? <FieldErrorText message={e.value.message} /> : null}
              {e?.type?.message ? <FieldErrorText message={e.type.message} /> : null}
              {!e ? <span className="field-hint">{pathHints[type]}</span> : null}
            </div>
          </div>
        );
      })}
      {errors?.message ? <FieldErrorText message={errors.message} /> : null}
      {errors?.root?.message ? <FieldErrorText message={errors.root.message} /> : null}
      <div className="row">
        {canWrite ? (
          <Button size="sm" icon="plus" onClick={() => append({ type: 'prefix', value: '' })} disabled={fields.length >= 50}>
            Add path
          </Button>
        ) : null}
        <span className="field-hint">Write paths decoded and clean: no %, \, ;, //, . or .. segments.</span>
      </div>
    </div>
  );
}

const namePattern = /^[A-Za-z0-9][A-Za-z0-9 ._@-]{0,63}$/;

/**
 * Who the request comes from. A request without a person (anonymous, basic auth, a machine token,
 * a shared link) never meets these: when the rule's other conditions match, it is asked to sign in.
 */
function IdentityFields({ index }: { index: number }) {
  const { register, control, formState } = useFormContext<RulesFormValues>();
  const errors = formState.errors.rules?.[index];
  const n = index + 1;
  return (
    <>
      <Field
        label={`Rule ${n} people`}
        optional
        error={errors?.people?.message}
        hint="Usernames; the request must come from one of them. Anyone when empty. A request without a signed-in person is asked to sign in."
      >
        <Controller
          control={control}
          name={`rules.${index}.people`}
          render={({ field }) => (
            <TagInput value={field.value} onChange={field.onChange} placeholder="ann" validate={(v) => (namePattern.test(v) ? null : 'Enter a username')} />
          )}
        />
      </Field>
      <Field label={`Rule ${n} groups`} optional error={errors?.groups?.message} hint="Group names; the person must be in one of them. Any group when empty.">
        <Controller
          control={control}
          name={`rules.${index}.groups`}
          render={({ field }) => (
            <TagInput value={field.value} onChange={field.onChange} placeholder="admins" validate={(v) => (namePattern.test(v) ? null : 'Enter a group name')} />
          )}
        />
      </Field>
      <label className="checkbox">
        <input type="checkbox" {...register(`rules.${index}.secondFactor`)} aria-label={`Rule ${n} requires a second factor`} />
        <span className="checkbox-text">
          <span>Signed in with a second factor</span>
          <span className="field-hint">Or a passkey. A person who signed in with a password only does not match.</span>
        </span>
      </label>
    </>
  );
}

function CountriesField({ index, geoip }: { index: number; geoip: boolean }) {
  const { control, formState } = useFormContext<RulesFormValues>();
  const value = useWatch({ control, name: `rules.${index}.countries` });
  const error = formState.errors.rules?.[index]?.countries?.message;
  const n = index + 1;
  if (!geoip && !value?.length && !error) {
    return (
      <div className="field">
        <span className="field-label">Countries</span>
        <p className="field-hint">
          Country conditions need a country database: set <code>PANEL_GEOIP_DB</code> to a MaxMind-format (.mmdb) file and restart the
          panel.
        </p>
      </div>
    );
  }
  return (
    <Field
      label={`Rule ${n} countries`}
      optional
      error={error}
      hint={
        geoip ? (
          'ISO 3166-1 codes such as DE or US. Any country when empty.'
        ) : (
          <>
            No country database is loaded (<code>PANEL_GEOIP_DB</code>): remove these countries or the rules cannot be saved.
          </>
        )
      }
    >
      <Controller
        control={control}
        name={`rules.${index}.countries`}
        render={({ field }) => (
          <TagInput
            value={field.value}
            onChange={(v) => field.onChange(v.map((c) => c.toUpperCase()))}
            placeholder="DE"
            validate={(v) => (/^[A-Za-z]{2}$/.test(v) ? null : 'Two letters, such as DE')}
          />
        )}
      />
    </Field>
  );
}

function HeadersEditor({ index }: { index: number }) {
  const { register, control, formState } = useFormContext<RulesFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: `rules.${index}.headers` });
  const headers = useWatch({ control, name: `rules.${index}.headers` });
  const errors = formState.errors.rules?.[index]?.headers;
  const n = index + 1;
  const canWrite = useCanWrite();
  return (
    <div className="stack-sm">
      <span className="field-label">
        Headers <span className="optional">(optional)</span>
      </span>
      <p className="field-hint warn-text row" style={{ gap: 5, alignItems: 'flex-start', flexWrap: 'nowrap' }}>
        <Icon name="alert" size={13} style={{ marginTop: 3, flex: 'none' }} />
        <span>Clients choose their own headers (a user agent is easy to fake): use them to tell apps apart, never as a security boundary.</span>
      </p>
      {fields.map((f, j) => {
        const e = errors?.[j];
        const match = headers?.[j]?.match ?? 'present';
        const id = `rule-${index}-header-${j}`;
        return (
          <div key={f.id} className="stack-sm">
            <div className="row-fields">
              <div className="rf-side" style={{ flex: '1 1 30%' }}>
                <label className="sr-only" htmlFor={`${id}-name`}>
                  Rule {n} header {j + 1} name
                </label>
                <input id={`${id}-name`} className="input mono" placeholder="User-Agent" aria-invalid={e?.name ? true : undefined} autoCapitalize="off" spellCheck={false} {...register(`rules.${index}.headers.${j}.name`)} />
              </div>
              <div className="rf-side" style={{ width: 120, flex: 'none' }}>
                <label className="sr-only" htmlFor={`${id}-match`}>
                  Rule {n} header {j + 1} match
                </label>
                <select id={`${id}-match`} className="select" {...register(`rules.${index}.headers.${j}.match`)}>
                  <option value="present">is present</option>
                  <option value="equals">equals</option>
                  <option value="contains">contains</option>
                </select>
              </div>
              <div className="rf-main">
                <label className="sr-only" htmlFor={`${id}-value`}>
                  Rule {n} header {j + 1} value
                </label>
                <input
                  id={`${id}-value`}
                  className="input mono"
                  placeholder={match === 'present' ? 'any value' : 'Nextcloud'}
                  readOnly={match === 'present'}
                  aria-invalid={e?.value ? true : undefined}
                  {...register(`rules.${index}.headers.${j}.value`)}
                />
              </div>
              {canWrite ? <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={`Remove rule ${n} header ${j + 1}`} onClick={() => remove(j)} /> : null}
            </div>
            {e?.name?.message ? <FieldErrorText message={`Name: ${e.name.message}`} /> : null}
            {e?.value?.message ? <FieldErrorText message={`Value: ${e.value.message}`} /> : null}
            {e?.match?.message ? <FieldErrorText message={e.match.message} /> : null}
          </div>
        );
      })}
      {errors?.message ? <FieldErrorText message={errors.message} /> : null}
      {canWrite ? (
        <div>
          <Button size="sm" icon="plus" onClick={() => append({ name: '', match: 'present', value: '' })} disabled={fields.length >= 50}>
            Add header
          </Button>
        </div>
      ) : null}
    </div>
  );
}
