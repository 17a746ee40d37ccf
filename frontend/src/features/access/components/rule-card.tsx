import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Field, FieldErrorText } from '@/components/ui/field';
import { Icon } from '@/components/ui/icons';
import { MethodPicker } from '@/components/ui/method-picker';
import { ReadOnlyFieldset } from '@/components/ui/read-only';
import { TagInput } from '@/components/ui/tag-input';
import { useCanWrite } from '@/lib/api/system';
import { accessActions, actionLabel, allowsEveryone, summarizeRule, type RulesFormValues } from './rule-schema';

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
  const { t } = useTranslation(['access', 'common']);
  const { register, control, formState } = useFormContext<RulesFormValues>();
  const rule = useWatch({ control, name: `rules.${index}` });
  const errors = formState.errors.rules?.[index];
  const n = index + 1;
  const bodyId = `rule-body-${fieldId}`;
  const hasErrors = !!errors;
  const expanded = open || hasErrors;
  const canWrite = useCanWrite();
  return (
    <li className={`rule-item rule-${rule?.action ?? 'allow'}`} aria-label={t('rule.label', { n })}>
      <div className="rule-head">
        <span className="rule-num" aria-hidden="true">
          {n}
        </span>
        <div className="rule-action">
          <label className="sr-only" htmlFor={`rule-${fieldId}-action`}>
            {t('rule.action', { n })}
          </label>
          <select id={`rule-${fieldId}-action`} className="select" disabled={!canWrite} {...register(`rules.${index}.action`)}>
            {accessActions.map((a) => (
              <option key={a} value={a}>
                {actionLabel(a)}
              </option>
            ))}
          </select>
        </div>
        {hasErrors ? (
          <span className="field-error" style={{ alignSelf: 'center' }}>
            <Icon name="alert" size={13} />
            <span>{t('rule.check')}</span>
          </span>
        ) : null}
        {canWrite ? (
          <div className="rule-tools">
            <Button id={`rule-${fieldId}-up`} size="sm" variant="ghost" iconOnly icon="chevronUp" aria-label={t('rule.moveUp', { n })} title={t('rule.moveUpShort')} disabled={index === 0} onClick={() => onMove(-1)} />
            <Button id={`rule-${fieldId}-down`} size="sm" variant="ghost" iconOnly icon="chevronDown" aria-label={t('rule.moveDown', { n })} title={t('rule.moveDownShort')} disabled={index === count - 1} onClick={() => onMove(1)} />
            <Button size="sm" variant="ghost" iconOnly icon="trash" aria-label={t('rule.remove', { n })} title={t('common:actions.remove')} onClick={onRemove} />
          </div>
        ) : null}
        <button type="button" className="rule-summary" onClick={onToggle} aria-expanded={expanded} aria-controls={bodyId}>
          <span className="rule-note-row">
            <span className="rule-note">{rule?.note ? rule.note : <span className="faint">{t('rule.noNote')}</span>}</span>
            <span className="rule-toggle small">
              <Icon name={expanded ? 'chevronUp' : 'chevronDown'} size={14} />
              {expanded ? t('common:actions.close') : canWrite ? t('common:actions.edit') : t('common:actions.show')}
            </span>
          </span>
          <span className="small muted mono rule-when">{t('rule.when', { summary: rule ? summarizeRule(rule) : '…' })}</span>
        </button>
        {rule && allowsEveryone(rule) ? (
          <p className="field-error small" style={{ gridColumn: '1 / -1', margin: 0 }}>
            <Icon name="alert" size={13} />
            <span>{t('rule.allowsEveryone')}</span>
          </p>
        ) : null}
      </div>
      {expanded ? (
        <div className="rule-body" id={bodyId}>
          <ReadOnlyFieldset readOnly={!canWrite}>
            <Field label={t('rule.note', { n })} optional error={errors?.note?.message} hint={t('rule.noteHint')}>
              <input className="input" placeholder={t('rule.notePlaceholder')} {...register(`rules.${index}.note`)} />
            </Field>
            <PathsEditor index={index} />
            <div className="field">
              <span className="field-label">
                <Trans t={t} i18nKey="rule.methods" components={{ opt: <span className="optional" /> }} />
              </span>
              <Controller
                control={control}
                name={`rules.${index}.methods`}
                render={({ field }) => (
                  <MethodPicker value={field.value} onChange={field.onChange} label={t('rule.methodsLabel', { n })} invalid={!!errors?.methods} />
                )}
              />
              {errors?.methods?.message ? <FieldErrorText message={errors.methods.message} /> : null}
            </div>
            <Field
              label={t('rule.sources', { n })}
              optional
              error={errors?.sources?.message}
              hint={t('rule.sourcesHint')}
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
                    suggestionLabel={t('rule.sourceShortcuts')}
                    validate={(v) => (sourcePattern.test(v) ? null : t('rule.sourceInvalid'))}
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

function PathsEditor({ index }: { index: number }) {
  const { t } = useTranslation('access');
  const { register, control, formState } = useFormContext<RulesFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: `rules.${index}.paths` });
  const paths = useWatch({ control, name: `rules.${index}.paths` });
  const errors = formState.errors.rules?.[index]?.paths;
  const n = index + 1;
  const canWrite = useCanWrite();
  return (
    <div className="stack-sm">
      <span className="field-label">
        <Trans t={t} i18nKey="paths.label" components={{ opt: <span className="optional" /> }} />
      </span>
      {fields.map((f, j) => {
        const e = errors?.[j];
        const type = paths?.[j]?.type ?? `prefix`;
        const errId = `rule-${index}-path-${j}-msg`;
        return (
          <div key={f.id} className="stack-sm">
            <div className="row-fields">
              <div className="rf-side" style={{ width: 120, flex: 'none' }}>
                <label className="sr-only" htmlFor={`${errId}-type`}>
                  {t('paths.type', { n, j: j + 1 })}
                </label>
                <select id={`${errId}-type`} className="select" aria-invalid={e?.type ? true : undefined} {...register(`rules.${index}.paths.${j}.type`)}>
                  <option value="prefix">{t('paths.types.prefix')}</option>
                  <option value="exact">{t('paths.types.exact')}</option>
                  <option value="glob">{t('paths.types.glob')}</option>
                  <option value="regex">{t('paths.types.regex')}</option>
                </select>
              </div>
              <div className="rf-main">
                <label className="sr-only" htmlFor={`${errId}-value`}>
                  {t('paths.value', { n, j: j + 1 })}
                </label>
                <input
                  id={`${errId}-value`}
                  className="input mono"
                  placeholder={t(`paths.placeholders.${type}`)}
                  aria-invalid={e?.value ? true : undefined}
                  aria-describedby={errId}
                  autoCapitalize="off"
                  spellCheck={false}
                  {...register(`rules.${index}.paths.${j}.value`)}
                />
              </div>
              {canWrite ? <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={t('paths.remove', { n, j: j + 1 })} onClick={() => remove(j)} /> : null}
            </div>
            <div id={errId}>
              {e?.value?.message ? <FieldErrorText message={e.value.message} /> : null}
              {e?.type?.message ? <FieldErrorText message={e.type.message} /> : null}
              {!e ? <span className="field-hint">{t(`paths.hints.${type}`)}</span> : null}
            </div>
          </div>
        );
      })}
      {errors?.message ? <FieldErrorText message={errors.message} /> : null}
      {errors?.root?.message ? <FieldErrorText message={errors.root.message} /> : null}
      <div className="row">
        {canWrite ? (
          <Button size="sm" icon="plus" onClick={() => append({ type: 'prefix', value: '' })} disabled={fields.length >= 50}>
            {t('paths.add')}
          </Button>
        ) : null}
        <span className="field-hint">{t('paths.clean')}</span>
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
  const { t } = useTranslation('access');
  const { register, control, formState } = useFormContext<RulesFormValues>();
  const errors = formState.errors.rules?.[index];
  const n = index + 1;
  return (
    <>
      <Field
        label={t('identity.people', { n })}
        optional
        error={errors?.people?.message}
        hint={t('identity.peopleHint')}
      >
        <Controller
          control={control}
          name={`rules.${index}.people`}
          render={({ field }) => (
            <TagInput value={field.value} onChange={field.onChange} placeholder="ann" validate={(v) => (namePattern.test(v) ? null : t('identity.enterUsername'))} />
          )}
        />
      </Field>
      <Field label={t('identity.groups', { n })} optional error={errors?.groups?.message} hint={t('identity.groupsHint')}>
        <Controller
          control={control}
          name={`rules.${index}.groups`}
          render={({ field }) => (
            <TagInput value={field.value} onChange={field.onChange} placeholder="admins" validate={(v) => (namePattern.test(v) ? null : t('identity.enterGroup'))} />
          )}
        />
      </Field>
      <label className="checkbox">
        <input type="checkbox" {...register(`rules.${index}.secondFactor`)} aria-label={t('identity.secondFactorLabel', { n })} />
        <span className="checkbox-text">
          <span>{t('identity.secondFactor')}</span>
          <span className="field-hint">{t('identity.secondFactorHint')}</span>
        </span>
      </label>
    </>
  );
}

function CountriesField({ index, geoip }: { index: number; geoip: boolean }) {
  const { t } = useTranslation('access');
  const { control, formState } = useFormContext<RulesFormValues>();
  const value = useWatch({ control, name: `rules.${index}.countries` });
  const error = formState.errors.rules?.[index]?.countries?.message;
  const n = index + 1;
  if (!geoip && !value?.length && !error) {
    return (
      <div className="field">
        <span className="field-label">{t('countries.label')}</span>
        <p className="field-hint">
          <Trans t={t} i18nKey="countries.needDb" components={{ code: <code /> }} />
        </p>
      </div>
    );
  }
  return (
    <Field
      label={t('countries.field', { n })}
      optional
      error={error}
      hint={
        geoip ? t('countries.hint') : <Trans t={t} i18nKey="countries.noDb" components={{ code: <code /> }} />
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
            validate={(v) => (/^[A-Za-z]{2}$/.test(v) ? null : t('countries.twoLetters'))}
          />
        )}
      />
    </Field>
  );
}

function HeadersEditor({ index }: { index: number }) {
  const { t } = useTranslation(['access', 'common']);
  const { register, control, formState } = useFormContext<RulesFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: `rules.${index}.headers` });
  const headers = useWatch({ control, name: `rules.${index}.headers` });
  const errors = formState.errors.rules?.[index]?.headers;
  const n = index + 1;
  const canWrite = useCanWrite();
  return (
    <div className="stack-sm">
      <span className="field-label">
        <Trans t={t} i18nKey="headers.label" components={{ opt: <span className="optional" /> }} />
      </span>
      <p className="field-hint warn-text row" style={{ gap: 5, alignItems: 'flex-start', flexWrap: 'nowrap' }}>
        <Icon name="alert" size={13} style={{ marginTop: 3, flex: 'none' }} />
        <span>{t('headers.warning')}</span>
      </p>
      {fields.map((f, j) => {
        const e = errors?.[j];
        const match = headers?.[j]?.match ?? `present`;
        const id = `rule-${index}-header-${j}`;
        return (
          <div key={f.id} className="stack-sm">
            <div className="row-fields">
              <div className="rf-side" style={{ flex: '1 1 30%' }}>
                <label className="sr-only" htmlFor={`${id}-name`}>
                  {t('headers.name', { n, j: j + 1 })}
                </label>
                <input id={`${id}-name`} className="input mono" placeholder={t('headers.namePlaceholder')} aria-invalid={e?.name ? true : undefined} autoCapitalize="off" spellCheck={false} {...register(`rules.${index}.headers.${j}.name`)} />
              </div>
              <div className="rf-side" style={{ width: 120, flex: 'none' }}>
                <label className="sr-only" htmlFor={`${id}-match`}>
                  {t('headers.match', { n, j: j + 1 })}
                </label>
                <select id={`${id}-match`} className="select" {...register(`rules.${index}.headers.${j}.match`)}>
                  <option value="present">{t('headers.matches.present')}</option>
                  <option value="equals">{t('headers.matches.equals')}</option>
                  <option value="contains">{t('headers.matches.contains')}</option>
                </select>
              </div>
              <div className="rf-main">
                <label className="sr-only" htmlFor={`${id}-value`}>
                  {t('headers.value', { n, j: j + 1 })}
                </label>
                <input
                  id={`${id}-value`}
                  className="input mono"
                  placeholder={match === 'present' ? t('headers.anyValue') : t('headers.valuePlaceholder')}
                  readOnly={match === 'present'}
                  aria-invalid={e?.value ? true : undefined}
                  {...register(`rules.${index}.headers.${j}.value`)}
                />
              </div>
              {canWrite ? <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={t('headers.remove', { n, j: j + 1 })} onClick={() => remove(j)} /> : null}
            </div>
            {e?.name?.message ? <FieldErrorText message={t('headers.nameError', { message: e.name.message })} /> : null}
            {e?.value?.message ? <FieldErrorText message={t('headers.valueError', { message: e.value.message })} /> : null}
            {e?.match?.message ? <FieldErrorText message={e.match.message} /> : null}
          </div>
        );
      })}
      {errors?.message ? <FieldErrorText message={errors.message} /> : null}
      {canWrite ? (
        <div>
          <Button size="sm" icon="plus" onClick={() => append({ name: '', match: 'present', value: '' })} disabled={fields.length >= 50}>
            {t('headers.add')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
