import { DurationUnitOptions } from '@/components/ui/duration-unit-options';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch, type FieldErrors, type UseFormSetValue } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, FieldErrorText, useFieldControl } from '@/components/ui/field';
import { Icon } from '@/components/ui/icons';
import { ReadOnlyFieldset, ReadOnlyNote } from '@/components/ui/read-only';
import { LoadingRows } from '@/components/ui/states';
import { Switch } from '@/components/ui/switch';
import { Tabs } from '@/components/ui/tabs';
import { TagInput } from '@/components/ui/tag-input';
import { useUnsavedGuard } from '@/components/ui/unsaved-guard';
import type { Domain, MatchRule, Service } from '@/lib/api-types';
import { entrypointChoices, useDomains, useGlobalConfig, useProxyEntrypoints, useProxyMiddlewares, useServices } from '@/lib/api/resources';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { formMode } from '@/lib/form-mode';
import { countdown, formatDateTime, formatDuration } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import { useConfigPreview, useCreateService, useUpdateService } from '../api/services';
import { Section, type Sub } from './form-section';
import { HttpsSection } from './https-section';
import { KindSection } from './kind-section';
import { LauncherSection } from './launcher-section';
import { LoadBalancingSection } from './load-balancing-section';
import { hostnameToFqdn } from './rule';
import { RulePreview } from './rule-preview';
import { parseTargetURL } from './target-url';
import {
  emptyServiceForm,
  formToInput,
  isValidRule,
  knownServicePaths,
  mapServerPath,
  serviceSchema,
  serviceToForm,
  type ServiceFormOutput,
  type ServiceFormValues,
} from './service-schema';

type Props = {
  service?: Service;
  onSaved: (s: Service) => void;
  /** Shows the saved values without a way to change them (a service its container's labels declare). */
  locked?: boolean;
};

type TabId = 'details' | 'https' | 'lb' | 'advanced';
const tabIds: TabId[] = ['details', 'https', 'lb', 'advanced'];

/** Upstream schemes, written as in a URL. */
const schemes = ['http', 'https', 'h2c'] as const;
const defaultHostnameType = 'subdomain';

/** The tab a form field is on. */
function tabOfField(field: string): TabId {
  if (/^(entrypoints|httpsRedirect|hsts)/.test(field)) return 'https';
  if (/^(hc|sticky|to[A-Z])/.test(field)) return 'lb';
  if (/^(rules|middlewares|headers|expiry)/.test(field)) return 'advanced';
  return 'details';
}

function countErrors(errors: FieldErrors<ServiceFormValues>): Record<TabId, number> {
  const out: Record<TabId, number> = { details: 0, https: 0, lb: 0, advanced: 0 };
  for (const [k, v] of Object.entries(errors)) if (v) out[tabOfField(k)]++;
  return out;
}

/** One tab's sections; the others stay mounted (hidden), so their fields keep their values and checks. */
function TabPanel({ id, current, children }: { id: TabId; current: TabId; children: React.ReactNode }) {
  const { t } = useTranslation(['services', 'common']);
  return (
    <div role="tabpanel" id={`service-tab-${id}`} aria-label={t(`form.tabs.${id}`)} hidden={id !== current}>
      {children}
    </div>
  );
}

const ruleTypes: MatchRule['type'][] = ['pathPrefix', 'path', 'header', 'query', 'method', 'clientIP'];

export function ServiceForm({ service, onSaved, locked }: Props) {
  const { t } = useTranslation(['services', 'common']);
  const domains = useDomains();
  const services = useServices();
  const config = useGlobalConfig();
  const entrypoints = useProxyEntrypoints();
  const middlewares = useProxyMiddlewares();
  const canWrite = useCanWrite();
  // The preview (its warnings) is for administrators: a viewer may not read it.
  const preview = useConfigPreview(canWrite ? service?.id : undefined);
  const create = useCreateService();
  const update = useUpdateService(service?.id ?? '');
  const saving = create.isPending || update.isPending;
  const [formError, setFormError] = useState<string | null>(null);

  const defaultDomain = domains.data?.find((d) => d.isDefault) ?? domains.data?.[0];
  const defaults = useMemo(
    () => (service ? serviceToForm(service) : emptyServiceForm(defaultDomain?.id ?? '')),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [service?.id, service?.updatedAt, defaultDomain?.id],
  );
  const form = useForm<ServiceFormValues, unknown, ServiceFormOutput>({
    resolver: zodResolver(serviceSchema),
    values: defaults,
    resetOptions: { keepDirtyValues: true },
    ...formMode,
  });
  const { register, control, handleSubmit, setError, setValue, formState, getValues, reset } = form;
  const errors = formState.errors;
  const [tab, setTab] = useState<TabId>('details');
  const errorCount = countErrors(errors);
  // After a submit that left errors, show the first tab that has any.
  useEffect(() => {
    if (formState.submitCount === 0 || errorCount[tab]) return;
    const first = tabIds.find((id) => errorCount[id]);
    if (first) setTab(first);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [formState.submitCount, formState.errors]);
  const kind = useWatch({ control, name: 'kind' });
  const guard = useUnsavedGuard(formState.isDirty && !saving);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    // The service's status is switched at once in the page's header: keep what it is now.
    const body = service ? { ...formToInput(values), enabled: service.enabled } : formToInput(values);
    try {
      const saved = service ? await update.mutateAsync(body) : await create.mutateAsync(body);
      reset(serviceToForm(saved));
      guard.allowNext();
      onSaved(saved);
    } catch (e) {
      const rest = applyServerErrors(e, setError, {
        map: (p) => mapServerPath(p, getValues()),
        known: knownServicePaths,
      });
      if (rest.length) setFormError(rest.join(' · '));
    }
  });

  const isCreate = !service;
  // A new service's hostname mode depends on the default domain: wait for the list first.
  if (isCreate && domains.isPending) return <LoadingRows rows={6} />;
  return (
    <form onSubmit={onSubmit} noValidate className="stack">
      {guard.dialog}
      {formError ? (
        <Alert tone="danger" title={t('form.notSaved')}>
          {formError}
        </Alert>
      ) : null}
      {canWrite ? null : <ReadOnlyNote />}
      <ReadOnlyFieldset readOnly={!canWrite || !!locked}>
        <Card>
          <div className="form-tabs">
            <Tabs
              label={t('form.tabsLabel')}
              tabs={tabIds.map((id) => ({ id, label: t(`form.tabs.${id}`), count: errorCount[id] || undefined }))}
              value={tab}
              onChange={setTab}
            />
          </div>
        <TabPanel id="details" current={tab}>
          <Section title={t('form.basics.title')} description={t('form.basics.description')}>
            <div className="grid-2">
              <Field label={t('form.basics.name')} error={errors.name?.message}>
                <input className="input" placeholder={t('form.basics.namePlaceholder')} {...register('name')} />
              </Field>
              {/* A service's on/off switch applies at once wherever it stands (the list's rows, the
                  service page's header); only a new service sets it here, with the rest. */}
              {isCreate ? (
                <div className="field">
                  <span className="field-label">{t('form.basics.status')}</span>
                  <Controller
                    control={control}
                    name="enabled"
                    render={({ field }) => (
                      <Switch
                        checked={field.value}
                        onChange={(e) => field.onChange(e.target.checked)}
                        label={field.value ? t('form.basics.enabledOn') : t('form.basics.enabledOff')}
                      />
                    )}
                  />
                </div>
              ) : null}
            </div>
          </Section>
          <HostnamesSection control={control} register={register} errors={errors} domains={domains.data ?? []} services={services.data ?? []} selfId={service?.id} />
          <KindSection control={control} register={register} errors={errors} />
          {kind === 'proxy' || errors.targets ? <TargetsSection control={control} register={register} errors={errors} setValue={setValue} /> : null}
        </TabPanel>
        <TabPanel id="https" current={tab}>
          <EntrypointsSection
            control={control}
            register={register}
            errors={errors}
            entrypointOptions={entrypointChoices(entrypoints.data?.items)}
            defaultEntrypoints={config.data?.defaultEntrypoints ?? []}
          />
          <HttpsSection control={control} register={register} errors={errors} domains={domains.data ?? []} warnings={preview.data?.warnings ?? []} />
        </TabPanel>
        <TabPanel id="lb" current={tab}>
          {kind === 'proxy' ? (
            <LoadBalancingSection control={control} register={register} errors={errors} />
          ) : (
            <Section title={t('lb.title')}>
              <p className="muted small" style={{ margin: 0 }}>
                {t('lb.redirectOnly')}
              </p>
            </Section>
          )}
        </TabPanel>
        <TabPanel id="advanced" current={tab}>
          <RoutingSection control={control} register={register} errors={errors} domains={domains.data ?? []} />
          <Section title={t('form.middlewares.title')} description={t('form.middlewares.description')}>
            <div className="stack">
              <Field
                label={t('form.middlewares.label')}
                optional
                error={errors.middlewares?.message}
                hint={middlewares.data?.reachable ? t('form.middlewares.hintPick') : t('form.middlewares.hintType')}
              >
                <Controller
                  control={control}
                  name="middlewares"
                  render={({ field }) => (
                    <TagInput
                      value={field.value}
                      onChange={field.onChange}
                      placeholder={t('form.middlewares.placeholder')}
                      suggestions={(middlewares.data?.items ?? []).map((m) => (m.name.includes('@') ? m.name : `${m.name}@${m.provider}`))}
                      validate={(v) => (/^[A-Za-z0-9._-]+(@[A-Za-z0-9._-]+)?$/.test(v) ? null : t('form.middlewares.invalid'))}
                    />
                  )}
                />
              </Field>
              <HeadersEditor control={control} register={register} errors={errors} />
            </div>
          </Section>
          <LauncherSection control={control} register={register} errors={errors} />
          <ExpirySection control={control} register={register} errors={errors} service={service} isCreate={isCreate} defaultLifetime={config.data?.defaultLifetimeSeconds ?? 0} />
        </TabPanel>
          {canWrite && !locked ? (
            <div className="card-footer form-actions">
              <ButtonLink to={service ? `/services/${service.id}` : '/services'} variant="ghost">
                {t('common:actions.cancel')}
              </ButtonLink>
              <Button type="submit" variant="primary" loading={saving} disabled={!isCreate && !formState.isDirty}>
                {isCreate ? t('form.create') : t('common:actions.saveChanges')}
              </Button>
            </div>
          ) : null}
        </Card>
      </ReadOnlyFieldset>
    </form>
  );
}

function DomainSelect({ children, ...field }: { children: React.ReactNode; name: string; value: string; onChange: (e: React.ChangeEvent<HTMLSelectElement>) => void; onBlur: () => void; ref: React.Ref<HTMLSelectElement> }) {
  const ctx = useFieldControl();
  return (
    <select className="select" id={ctx?.id} aria-invalid={ctx?.invalid || undefined} aria-describedby={ctx?.describedBy} {...field}>
      {children}
    </select>
  );
}

function HostnamesSection({ control, register, errors, domains, services, selfId }: Sub & { domains: Domain[]; services: Service[]; selfId?: string }) {
  const { t } = useTranslation(['services', 'common']);
  const { fields, append, remove } = useFieldArray({ control, name: 'hostnames' });
  const canWrite = useCanWrite();
  const domainId = useWatch({ control, name: 'domainId' });
  const hostnames = useWatch({ control, name: 'hostnames' });
  const domain = domains.find((d) => d.id === domainId);
  const owners = useMemo(() => {
    const m = new Map<string, string>();
    for (const s of services) if (s.id !== selfId) for (const f of s.fqdns ?? []) m.set(f.toLowerCase(), s.name);
    return m;
  }, [services, selfId]);
  const arrayError = errors.hostnames?.root?.message ?? errors.hostnames?.message;
  return (
    <Section title={t('form.hostnames.title')} description={t('form.hostnames.description')}>
      <div className="stack">
        <Field label={t('form.hostnames.domain')} error={errors.domainId?.message} hint={domains.length ? undefined : t('form.hostnames.noDomains')}>
          <Controller
            control={control}
            name="domainId"
            render={({ field }) => (
              // Controlled so the choice shows even when the options arrive after the value.
              <DomainSelect {...field}>
                <option value="">{t('form.hostnames.noDomain')}</option>
                {domains.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.domain}
                    {d.name && d.name !== d.domain ? ` (${d.name})` : ''}
                    {d.isDefault ? ` · ${t('form.hostnames.default')}` : ''}
                  </option>
                ))}
              </DomainSelect>
            )}
          />
        </Field>
        {fields.map((f, i) => {
          const h = hostnames?.[i];
          const type = h?.type ?? defaultHostnameType;
          const fqdn = h ? hostnameToFqdn({ type: h.type, value: h.value }, domain) : '';
          const owner = fqdn ? owners.get(fqdn) : undefined;
          const err = errors.hostnames?.[i]?.value?.message;
          return (
            <div key={f.id} className="stack-sm">
              <div className="row-fields">
                <div className="field rf-side" style={{ width: 130, flex: 'none' }}>
                  <label className="sr-only" htmlFor={`hn-type-${i}`}>
                    {t('form.hostnames.typeLabel', { n: i + 1 })}
                  </label>
                  <select id={`hn-type-${i}`} className="select" {...register(`hostnames.${i}.type`)}>
                    <option value="subdomain">{t('form.hostnames.types.subdomain')}</option>
                    <option value="apex">{t('form.hostnames.types.apex')}</option>
                    <option value="custom">{t('form.hostnames.types.custom')}</option>
                  </select>
                </div>
                <div className="rf-main">
                  {type === 'apex' ? (
                    <div className="input" style={{ display: 'flex', alignItems: 'center', background: 'var(--surface-2)' }} aria-live="polite">
                      <span className="mono">{domain?.domain ?? t('form.hostnames.selectDomain')}</span>
                    </div>
                  ) : (
                    <div className={type === 'subdomain' ? 'input-group' : undefined}>
                      <label className="sr-only" htmlFor={`hn-value-${i}`}>
                        {t('form.hostnames.valueLabel', { n: i + 1 })}
                      </label>
                      <input
                        id={`hn-value-${i}`}
                        className="input"
                        placeholder={type === 'subdomain' ? t('form.hostnames.subdomainPlaceholder') : t('form.hostnames.customPlaceholder')}
                        aria-invalid={err ? true : undefined}
                        aria-describedby={err || owner ? `hn-msg-${i}` : undefined}
                        autoCapitalize="off"
                        spellCheck={false}
                        {...register(`hostnames.${i}.value`)}
                      />
                      {type === 'subdomain' ? <span className="input-addon mono">.{domain?.domain ?? t('form.hostnames.domainSuffix')}</span> : null}
                    </div>
                  )}
                </div>
                {canWrite ? <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={t('form.hostnames.remove', { n: i + 1 })} disabled={fields.length === 1} onClick={() => remove(i)} /> : null}
              </div>
              <div id={`hn-msg-${i}`}>
                {err ? <FieldErrorText message={err} /> : null}
                {owner && !err ? (
                  <div className="field-error warn-text" role="status">
                    <Icon name="alert" size={13} />
                    <span>
                      <Trans t={t} i18nKey="form.hostnames.taken" values={{ fqdn, owner }} components={{ host: <strong className="mono" />, b: <strong /> }} />
                    </span>
                  </div>
                ) : null}
              </div>
            </div>
          );
        })}
        {arrayError ? <FieldErrorText message={arrayError} /> : null}
        {canWrite ? (
          <div>
            <Button size="sm" icon="plus" onClick={() => append({ type: domain ? 'subdomain' : 'custom', value: '' })}>
              {t('form.hostnames.add')}
            </Button>
          </div>
        ) : null}
      </div>
    </Section>
  );
}

function TargetsSection({ control, register, errors, setValue }: Sub & { setValue: UseFormSetValue<ServiceFormValues> }) {
  const { t } = useTranslation(['services', 'common']);
  const { fields, append, remove } = useFieldArray({ control, name: 'targets' });
  const canWrite = useCanWrite();
  const targets = useWatch({ control, name: 'targets' });
  const anyHttps = targets?.some((t) => t.scheme === 'https');
  const arrayError = errors.targets?.root?.message ?? errors.targets?.message;
  return (
    <Section title={t('form.targets.title')} description={t('form.targets.description')}>
      <div className="stack">
        {fields.map((f, i) => {
          const e = errors.targets?.[i];
          return (
            <div key={f.id} className="stack-sm">
              <div className="row-fields target-row" data-testid={`target-row-${i}`}>
                <div className="rf-side" style={{ width: 96, flex: 'none' }}>
                  <label className="sr-only" htmlFor={`t-scheme-${i}`}>
                    {t('form.targets.schemeLabel', { n: i + 1 })}
                  </label>
                  <select id={`t-scheme-${i}`} className="select" {...register(`targets.${i}.scheme`)}>
                    {schemes.map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="rf-main">
                  <label className="sr-only" htmlFor={`t-host-${i}`}>
                    {t('form.targets.hostLabel', { n: i + 1 })}
                  </label>
                  <input id={`t-host-${i}`} className="input mono" placeholder={t('form.targets.hostPlaceholder')} aria-invalid={e?.host ? true : undefined} autoCapitalize="off" spellCheck={false} {...register(`targets.${i}.host`, {
                      // A pasted URL (http://10.0.0.5:3000) fills the scheme, host and port.
                      onChange: (ev: React.ChangeEvent<HTMLInputElement>) => {
                        const u = parseTargetURL(ev.target.value);
                        if (!u) return;
                        const opts = { shouldDirty: true, shouldValidate: true } as const;
                        setValue(`targets.${i}.scheme`, u.scheme, opts);
                        setValue(`targets.${i}.host`, u.host, opts);
                        setValue(`targets.${i}.port`, u.port, opts);
                      },
                    })} />
                </div>
                <div className="rf-side" style={{ width: 92, flex: 'none' }}>
                  <label className="sr-only" htmlFor={`t-port-${i}`}>
                    {t('form.targets.portLabel', { n: i + 1 })}
                  </label>
                  <input id={`t-port-${i}`} className="input mono" inputMode="numeric" placeholder={t('form.targets.portPlaceholder')} aria-invalid={e?.port ? true : undefined} {...register(`targets.${i}.port`, { valueAsNumber: true })} />
                </div>
                {fields.length > 1 ? (
                  <div className="rf-side" style={{ width: 76, flex: 'none' }}>
                    <label className="sr-only" htmlFor={`t-weight-${i}`}>
                      {t('form.targets.weightLabel', { n: i + 1 })}
                    </label>
                    <input id={`t-weight-${i}`} className="input mono" inputMode="numeric" title={t('form.targets.weight')} placeholder={t('form.targets.weightPlaceholder')} aria-invalid={e?.weight ? true : undefined} {...register(`targets.${i}.weight`, { valueAsNumber: true })} />
                  </div>
                ) : null}
                {canWrite ? <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={t('form.targets.remove', { n: i + 1 })} disabled={fields.length === 1} onClick={() => remove(i)} /> : null}
              </div>
              {e?.host?.message ? <FieldErrorText message={t('form.targets.hostError', { message: e.host.message })} /> : null}
              {e?.port?.message ? <FieldErrorText message={t('form.targets.portError', { message: e.port.message })} /> : null}
              {e?.scheme?.message ? <FieldErrorText message={e.scheme.message} /> : null}
              {e?.weight?.message ? <FieldErrorText message={t('form.targets.weightError', { message: e.weight.message })} /> : null}
            </div>
          );
        })}
        {arrayError ? <FieldErrorText message={arrayError} /> : null}
        {canWrite ? (
          <div>
            <Button size="sm" icon="plus" disabled={fields.length >= 32} onClick={() => append({ scheme: 'http', host: '', port: 80, weight: 1 })}>
              {t('form.targets.add')}
            </Button>
          </div>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" {...register('passHostHeader')} />
          <span className="checkbox-text">
            <span>{t('form.targets.passHost')}</span>
            <span className="field-hint">{t('form.targets.passHostHint')}</span>
          </span>
        </label>
        {anyHttps ? (
          <label className="checkbox">
            <input type="checkbox" {...register('insecureSkipVerify')} />
            <span className="checkbox-text">
              <span>{t('form.targets.skipVerify')}</span>
              <span className="field-hint">{t('form.targets.skipVerifyHint')}</span>
            </span>
          </label>
        ) : null}
      </div>
    </Section>
  );
}

function EntrypointsSection({ control, errors, entrypointOptions, defaultEntrypoints }: Sub & { entrypointOptions: string[]; defaultEntrypoints: string[] }) {
  const { t } = useTranslation(['services', 'common']);
  return (
    <Section title={t('form.entrypoints.title')} description={t('form.entrypoints.description')}>
      <Field
        label={t('form.entrypoints.title')}
        optional
        error={errors.entrypoints?.message}
        hint={defaultEntrypoints.length ? t('form.entrypoints.hintDefaults', { names: defaultEntrypoints.join(', ') }) : t('form.entrypoints.hintGlobal')}
      >
        <Controller
          control={control}
          name="entrypoints"
          render={({ field }) => (
            <TagInput value={field.value} onChange={field.onChange} placeholder={t('form.entrypoints.placeholder')} suggestions={entrypointOptions} validate={(v) => (/^[A-Za-z0-9_-]+$/.test(v) ? null : t('form.entrypoints.invalid'))} />
          )}
        />
      </Field>
    </Section>
  );
}

function RoutingSection({ control, register, errors, domains }: Sub & { domains: Domain[] }) {
  const { t } = useTranslation(['services', 'common']);
  const { fields, append, remove } = useFieldArray({ control, name: 'rules' });
  const canWrite = useCanWrite();
  const rules = useWatch({ control, name: 'rules' });
  const hostnames = useWatch({ control, name: 'hostnames' });
  const domainId = useWatch({ control, name: 'domainId' });
  const domain = domains.find((d) => d.id === domainId);
  const hosts = (hostnames ?? []).map((h) => hostnameToFqdn(h, domain)).filter(Boolean);
  return (
    <Section title={t('form.rules.title')} description={t('form.rules.description')}>
      <div className="stack">
        <div className="stack-sm">
          <span className="field-label">
            {t('form.rules.title')} <span className="optional">({t('common:words.optional')})</span>
          </span>
          {fields.map((f, i) => {
            const r = rules?.[i];
            const named = r?.type === 'header' || r?.type === 'query';
            const e = errors.rules?.[i];
            return (
              <div key={f.id} className="stack-sm">
                <div className="row-fields">
                  <div className="rf-side" style={{ width: 150, flex: 'none' }}>
                    <label className="sr-only" htmlFor={`r-type-${i}`}>
                      {t('form.rules.typeLabel', { n: i + 1 })}
                    </label>
                    <select id={`r-type-${i}`} className="select" {...register(`rules.${i}.type`)}>
                      {ruleTypes.map((k) => (
                        <option key={k} value={k}>
                          {t(`form.rules.types.${k}`)}
                        </option>
                      ))}
                    </select>
                  </div>
                  {named ? (
                    <div className="rf-side" style={{ flex: '1 1 30%' }}>
                      <label className="sr-only" htmlFor={`r-name-${i}`}>
                        {t('form.rules.nameLabel', { n: i + 1 })}
                      </label>
                      <input id={`r-name-${i}`} className="input mono" placeholder={r?.type === 'header' ? t('form.rules.headerPlaceholder') : t('form.rules.queryPlaceholder')} aria-invalid={e?.name ? true : undefined} {...register(`rules.${i}.name`)} />
                    </div>
                  ) : null}
                  <div className="rf-main">
                    <label className="sr-only" htmlFor={`r-value-${i}`}>
                      {t('form.rules.valueLabel', { n: i + 1 })}
                    </label>
                    {r?.type === 'method' ? (
                      <select id={`r-value-${i}`} className="select" {...register(`rules.${i}.value`)}>
                        <option value="">{t('form.rules.choose')}</option>
                        {['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].map((m) => (
                          <option key={m}>{m}</option>
                        ))}
                      </select>
                    ) : (
                      <input id={`r-value-${i}`} className="input mono" placeholder={r?.type === 'clientIP' ? t('form.rules.ipPlaceholder') : r?.type?.startsWith('path') ? t('form.rules.pathPlaceholder') : t('form.rules.valuePlaceholder')} aria-invalid={e?.value ? true : undefined} {...register(`rules.${i}.value`)} />
                    )}
                  </div>
                  {canWrite ? <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={t('form.rules.remove', { n: i + 1 })} onClick={() => remove(i)} /> : null}
                </div>
                {e?.name?.message ? <FieldErrorText message={t('form.rules.nameError', { message: e.name.message })} /> : null}
                {e?.value?.message ? <FieldErrorText message={e.value.message} /> : null}
              </div>
            );
          })}
          {canWrite ? (
            <div>
              <Button size="sm" icon="plus" onClick={() => append({ type: 'pathPrefix', name: '', value: '' })}>
                {t('form.rules.add')}
              </Button>
            </div>
          ) : null}
        </div>
        <RulePreview
          hosts={hosts}
          rules={(rules ?? []).map((r) => ({ type: r.type, name: r.name, value: r.value }))}
          invalid={(rules ?? []).some((r) => !isValidRule({ type: r.type, name: r.name ?? '', value: r.value ?? '' }))}
        />
      </div>
    </Section>
  );
}

function HeadersEditor({ control, register, errors }: Sub) {
  const { t } = useTranslation(['services', 'common']);
  const { fields, append, remove } = useFieldArray({ control, name: 'headers' });
  const canWrite = useCanWrite();
  const rootError = errors.headers?.root?.message ?? errors.headers?.message;
  return (
    <div className="stack-sm">
      <span className="field-label">
        {t('form.headers.title')} <span className="optional">({t('common:words.optional')})</span>
      </span>
      {fields.map((f, i) => {
        const e = errors.headers?.[i];
        return (
          <div key={f.id} className="stack-sm">
            <div className="row-fields">
              <div className="rf-side" style={{ flex: '1 1 40%' }}>
                <label className="sr-only" htmlFor={`h-name-${i}`}>
                  {t('form.headers.nameLabel', { n: i + 1 })}
                </label>
                <input id={`h-name-${i}`} className="input mono" placeholder={t('form.headers.namePlaceholder')} aria-invalid={e?.name ? true : undefined} {...register(`headers.${i}.name`)} />
              </div>
              <div className="rf-main">
                <label className="sr-only" htmlFor={`h-value-${i}`}>
                  {t('form.headers.valueLabel', { n: i + 1 })}
                </label>
                <input id={`h-value-${i}`} className="input mono" placeholder={t('form.headers.valuePlaceholder')} aria-invalid={e?.value ? true : undefined} {...register(`headers.${i}.value`)} />
              </div>
              {canWrite ? <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={t('form.headers.remove', { n: i + 1 })} onClick={() => remove(i)} /> : null}
            </div>
            {e?.name?.message ? <FieldErrorText message={e.name.message} /> : null}
            {e?.value?.message ? <FieldErrorText message={e.value.message} /> : null}
          </div>
        );
      })}
      {rootError ? <FieldErrorText message={rootError} /> : null}
      {canWrite ? (
        <div>
          <Button size="sm" icon="plus" onClick={() => append({ name: '', value: '' })}>
            {t('form.headers.add')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function ExpirySection({ control, register, errors, service, isCreate, defaultLifetime }: Sub & { service?: Service; isCreate: boolean; defaultLifetime: number }) {
  const { t } = useTranslation(['services', 'common']);
  const now = useNow(1000);
  const type = useWatch({ control, name: 'expiryType' });
  const at = useWatch({ control, name: 'expiryAt' });
  const amount = useWatch({ control, name: 'expiryAmount' });
  const unit = useWatch({ control, name: 'expiryUnit' });
  const enabled = useWatch({ control, name: 'enabled' });

  let projected: string | null = null;
  if (type === 'at' && at) projected = new Date(at).toISOString();
  if (type === 'duration' && Number(amount) > 0) {
    const start = service?.enabled && service.enabledAt ? new Date(service.enabledAt).getTime() : now;
    projected = new Date(start + Number(amount) * Number(unit) * 1000).toISOString();
  }
  if (type === 'default' && defaultLifetime > 0) projected = new Date(now + defaultLifetime * 1000).toISOString();
  const cd = countdown(projected, now);

  // Without a default lifetime, "the default" is never: one choice, not two that mean the same.
  const options: { v: ServiceFormValues['expiryType']; label: string }[] = [
    ...(isCreate
      ? [{ v: 'default' as const, label: defaultLifetime ? t('form.expiry.default', { duration: formatDuration(defaultLifetime) }) : t('form.expiry.never') }]
      : []),
    ...(isCreate && !defaultLifetime ? [] : [{ v: 'never' as const, label: t('form.expiry.never') }]),
    { v: 'at', label: t('form.expiry.at') },
    { v: 'duration', label: t('form.expiry.duration') },
  ];
  return (
    <Section title={t('form.expiry.title')} description={t('form.expiry.description')}>
      <div className="stack">
        <div className="radio-cards" role="radiogroup" aria-label={t('form.expiry.groupLabel')}>
          {options.map((o) => (
            <label key={o.v} className="radio-card">
              <input type="radio" value={o.v} {...register('expiryType')} />
              <span>{o.label}</span>
            </label>
          ))}
        </div>
        {errors.expiryType?.message ? <FieldErrorText message={errors.expiryType.message} /> : null}
        {type === 'at' ? (
          <Field label={t('form.expiry.expiresAt')} error={errors.expiryAt?.message} hint={t('form.expiry.expiresAtHint')}>
            <input type="datetime-local" className="input" style={{ maxWidth: 260 }} {...register('expiryAt')} />
          </Field>
        ) : null}
        {type === 'duration' ? (
          <div className="row" style={{ alignItems: 'flex-start' }}>
            <Field label={t('form.expiry.amount')} error={errors.expiryAmount?.message}>
              <input className="input" style={{ width: 110 }} inputMode="numeric" {...register('expiryAmount', { valueAsNumber: true })} />
            </Field>
            <Field label={t('form.expiry.unit')}>
              <select className="select" style={{ width: 130 }} {...register('expiryUnit', { valueAsNumber: true })}>
                <DurationUnitOptions />
              </select>
            </Field>
          </div>
        ) : null}
        {projected ? (
          <div className="alert alert-info" role="status" data-testid="expiry-countdown">
            <Icon name="clock" size={18} />
            <div>
              {cd.expired ? (
                <strong>{t('form.expiry.passed')}</strong>
              ) : (
                <>
                  <strong>{enabled ? t('form.expiry.expiresIn', { time: cd.text }) : t('form.expiry.wouldExpire', { time: cd.text })}</strong>
                  <div className="muted small">{formatDateTime(projected)}</div>
                </>
              )}
            </div>
          </div>
        ) : null}
        {service?.expiresAt && !service.enabled ? (
          <p className="muted small">{t('form.expiry.expiredAt', { date: formatDateTime(service.expiresAt) })}</p>
        ) : null}
      </div>
    </Section>
  );
}
