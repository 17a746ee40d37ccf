import { DurationUnitOptions } from '@/components/ui/duration-unit-options';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch, type FieldErrors, type UseFormSetValue } from 'react-hook-form';
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

type Props = { service?: Service; onSaved: (s: Service) => void };

type TabId = 'details' | 'https' | 'lb' | 'advanced';
const tabs: { id: TabId; label: string }[] = [
  { id: 'details', label: 'Details' },
  { id: 'https', label: 'TLS and HTTPS' },
  { id: 'lb', label: 'Load balancing' },
  { id: 'advanced', label: 'Advanced' },
];

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
  return (
    <div role="tabpanel" id={`service-tab-${id}`} aria-label={tabs.find((t) => t.id === id)?.label} hidden={id !== current}>
      {children}
    </div>
  );
}

const ruleLabels: Record<MatchRule['type'], string> = {
  pathPrefix: 'Path prefix',
  path: 'Exact path',
  header: 'Header',
  query: 'Query parameter',
  method: 'HTTP method',
  clientIP: 'Client IP / CIDR',
};

export function ServiceForm({ service, onSaved }: Props) {
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
    const first = tabs.find((t) => errorCount[t.id]);
    if (first) setTab(first.id);
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
        <Alert tone="danger" title="The service was not saved">
          {formError}
        </Alert>
      ) : null}
      {canWrite ? null : <ReadOnlyNote />}
      <ReadOnlyFieldset readOnly={!canWrite}>
        <Card>
          <div className="form-tabs">
            <Tabs label="Service settings" tabs={tabs.map((t) => ({ ...t, count: errorCount[t.id] || undefined }))} value={tab} onChange={setTab} />
          </div>
        <TabPanel id="details" current={tab}>
          <Section title="Basics" description="A name for you; it does not appear in URLs.">
            <div className="grid-2">
              <Field label="Name" error={errors.name?.message}>
                <input className="input" placeholder="Grafana" {...register('name')} />
              </Field>
              {/* A service's on/off switch applies at once wherever it stands (the list's rows, the
                  service page's header); only a new service sets it here, with the rest. */}
              {isCreate ? (
                <div className="field">
                  <span className="field-label">Status</span>
                  <Controller
                    control={control}
                    name="enabled"
                    render={({ field }) => (
                      <Switch
                        checked={field.value}
                        onChange={(e) => field.onChange(e.target.checked)}
                        label={field.value ? 'Enabled: in the configuration Traefik polls' : 'Disabled: not routed'}
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
            <Section title="Load balancing">
              <p className="muted small" style={{ margin: 0 }}>
                Only a proxy service has upstreams to balance; a redirect service answers by itself.
              </p>
            </Section>
          )}
        </TabPanel>
        <TabPanel id="advanced" current={tab}>
          <RoutingSection control={control} register={register} errors={errors} domains={domains.data ?? []} />
          <Section title="Middlewares & headers" description="Traefik middlewares run after the panel's own (authentication). Headers are set on requests to the upstream.">
            <div className="stack">
              <Field
                label="Middlewares"
                optional
                error={errors.middlewares?.message}
                hint={middlewares.data?.reachable ? 'Pick from Traefik or type name@provider and press Enter.' : 'Type name@provider and press Enter.'}
              >
                <Controller
                  control={control}
                  name="middlewares"
                  render={({ field }) => (
                    <TagInput
                      value={field.value}
                      onChange={field.onChange}
                      placeholder="compress@file"
                      suggestions={(middlewares.data?.items ?? []).map((m) => (m.name.includes('@') ? m.name : `${m.name}@${m.provider}`))}
                      validate={(v) => (/^[A-Za-z0-9._-]+(@[A-Za-z0-9._-]+)?$/.test(v) ? null : 'Use name@provider')}
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
          {canWrite ? (
            <div className="card-footer form-actions">
              <ButtonLink to={service ? `/services/${service.id}` : '/services'} variant="ghost">
                Cancel
              </ButtonLink>
              <Button type="submit" variant="primary" loading={saving} disabled={!isCreate && !formState.isDirty}>
                {isCreate ? 'Create service' : 'Save changes'}
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
    <Section title="Hostnames" description="Where the service is reachable. Subdomains and the apex use the selected domain; custom names are used as written.">
      <div className="stack">
        <Field label="Domain" error={errors.domainId?.message} hint={domains.length ? undefined : 'No domains yet: add one under Domains, or use custom hostnames.'}>
          <Controller
            control={control}
            name="domainId"
            render={({ field }) => (
              // Controlled so the choice shows even when the options arrive after the value.
              <DomainSelect {...field}>
                <option value="">No domain (custom hostnames only)</option>
                {domains.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.domain}
                    {d.name && d.name !== d.domain ? ` (${d.name})` : ''}
                    {d.isDefault ? ' · default' : ''}
                  </option>
                ))}
              </DomainSelect>
            )}
          />
        </Field>
        {fields.map((f, i) => {
          const h = hostnames?.[i];
          const type = h?.type ?? 'subdomain';
          const fqdn = h ? hostnameToFqdn({ type: h.type, value: h.value }, domain) : '';
          const owner = fqdn ? owners.get(fqdn) : undefined;
          const err = errors.hostnames?.[i]?.value?.message;
          return (
            <div key={f.id} className="stack-sm">
              <div className="row-fields">
                <div className="field rf-side" style={{ width: 130, flex: 'none' }}>
                  <label className="sr-only" htmlFor={`hn-type-${i}`}>
                    Hostname {i + 1} type
                  </label>
                  <select id={`hn-type-${i}`} className="select" {...register(`hostnames.${i}.type`)}>
                    <option value="subdomain">Subdomain</option>
                    <option value="apex">Apex</option>
                    <option value="custom">Custom</option>
                  </select>
                </div>
                <div className="rf-main">
                  {type === 'apex' ? (
                    <div className="input" style={{ display: 'flex', alignItems: 'center', background: 'var(--surface-2)' }} aria-live="polite">
                      <span className="mono">{domain?.domain ?? 'select a domain'}</span>
                    </div>
                  ) : (
                    <div className={type === 'subdomain' ? 'input-group' : undefined}>
                      <label className="sr-only" htmlFor={`hn-value-${i}`}>
                        Hostname {i + 1}
                      </label>
                      <input
                        id={`hn-value-${i}`}
                        className="input"
                        placeholder={type === 'subdomain' ? 'app' : 'app.example.org'}
                        aria-invalid={err ? true : undefined}
                        aria-describedby={err || owner ? `hn-msg-${i}` : undefined}
                        autoCapitalize="off"
                        spellCheck={false}
                        {...register(`hostnames.${i}.value`)}
                      />
                      {type === 'subdomain' ? <span className="input-addon mono">.{domain?.domain ?? 'domain'}</span> : null}
                    </div>
                  )}
                </div>
                {canWrite ? <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={`Remove hostname ${i + 1}`} disabled={fields.length === 1} onClick={() => remove(i)} /> : null}
              </div>
              <div id={`hn-msg-${i}`}>
                {err ? <FieldErrorText message={err} /> : null}
                {owner && !err ? (
                  <div className="field-error warn-text" role="status">
                    <Icon name="alert" size={13} />
                    <span>
                      <strong className="mono">{fqdn}</strong> already belongs to <strong>{owner}</strong>. Saving will be refused.
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
              Add hostname
            </Button>
          </div>
        ) : null}
      </div>
    </Section>
  );
}

function TargetsSection({ control, register, errors, setValue }: Sub & { setValue: UseFormSetValue<ServiceFormValues> }) {
  const { fields, append, remove } = useFieldArray({ control, name: 'targets' });
  const canWrite = useCanWrite();
  const targets = useWatch({ control, name: 'targets' });
  const anyHttps = targets?.some((t) => t.scheme === 'https');
  const arrayError = errors.targets?.root?.message ?? errors.targets?.message;
  return (
    <Section title="Targets" description="The upstream servers. Several targets are load-balanced round-robin, each in proportion to its weight.">
      <div className="stack">
        {fields.map((f, i) => {
          const e = errors.targets?.[i];
          return (
            <div key={f.id} className="stack-sm">
              <div className="row-fields target-row" data-testid={`target-row-${i}`}>
                <div className="rf-side" style={{ width: 96, flex: 'none' }}>
                  <label className="sr-only" htmlFor={`t-scheme-${i}`}>
                    Target {i + 1} scheme
                  </label>
                  <select id={`t-scheme-${i}`} className="select" {...register(`targets.${i}.scheme`)}>
                    <option value="http">http</option>
                    <option value="https">https</option>
                    <option value="h2c">h2c</option>
                  </select>
                </div>
                <div className="rf-main">
                  <label className="sr-only" htmlFor={`t-host-${i}`}>
                    Target {i + 1} host
                  </label>
                  <input id={`t-host-${i}`} className="input mono" placeholder="10.0.0.5 or http://10.0.0.5:3000" aria-invalid={e?.host ? true : undefined} autoCapitalize="off" spellCheck={false} {...register(`targets.${i}.host`, {
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
                    Target {i + 1} port
                  </label>
                  <input id={`t-port-${i}`} className="input mono" inputMode="numeric" placeholder="port" aria-invalid={e?.port ? true : undefined} {...register(`targets.${i}.port`, { valueAsNumber: true })} />
                </div>
                {fields.length > 1 ? (
                  <div className="rf-side" style={{ width: 76, flex: 'none' }}>
                    <label className="sr-only" htmlFor={`t-weight-${i}`}>
                      Target {i + 1} weight
                    </label>
                    <input id={`t-weight-${i}`} className="input mono" inputMode="numeric" title="Weight" placeholder="weight" aria-invalid={e?.weight ? true : undefined} {...register(`targets.${i}.weight`, { valueAsNumber: true })} />
                  </div>
                ) : null}
                {canWrite ? <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={`Remove target ${i + 1}`} disabled={fields.length === 1} onClick={() => remove(i)} /> : null}
              </div>
              {e?.host?.message ? <FieldErrorText message={`Host: ${e.host.message}`} /> : null}
              {e?.port?.message ? <FieldErrorText message={`Port: ${e.port.message}`} /> : null}
              {e?.scheme?.message ? <FieldErrorText message={e.scheme.message} /> : null}
              {e?.weight?.message ? <FieldErrorText message={`Weight: ${e.weight.message}`} /> : null}
            </div>
          );
        })}
        {arrayError ? <FieldErrorText message={arrayError} /> : null}
        {canWrite ? (
          <div>
            <Button size="sm" icon="plus" disabled={fields.length >= 32} onClick={() => append({ scheme: 'http', host: '', port: 80, weight: 1 })}>
              Add target
            </Button>
          </div>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" {...register('passHostHeader')} />
          <span className="checkbox-text">
            <span>Pass the Host header</span>
            <span className="field-hint">Send the original hostname to the upstream (recommended for most apps).</span>
          </span>
        </label>
        {anyHttps ? (
          <label className="checkbox">
            <input type="checkbox" {...register('insecureSkipVerify')} />
            <span className="checkbox-text">
              <span>Skip TLS verification for HTTPS targets</span>
              <span className="field-hint">Only for upstreams with self-signed certificates.</span>
            </span>
          </label>
        ) : null}
      </div>
    </Section>
  );
}

function EntrypointsSection({ control, errors, entrypointOptions, defaultEntrypoints }: Sub & { entrypointOptions: string[]; defaultEntrypoints: string[] }) {
  return (
    <Section title="Entrypoints" description="Where Traefik listens for this service. Routers on TLS entrypoints (websecure) serve HTTPS with the domain's certificate.">
      <Field
        label="Entrypoints"
        optional
        error={errors.entrypoints?.message}
        hint={defaultEntrypoints.length ? `Empty uses the defaults: ${defaultEntrypoints.join(', ')}.` : 'Empty uses the global defaults.'}
      >
        <Controller
          control={control}
          name="entrypoints"
          render={({ field }) => (
            <TagInput value={field.value} onChange={field.onChange} placeholder="websecure" suggestions={entrypointOptions} validate={(v) => (/^[A-Za-z0-9_-]+$/.test(v) ? null : 'Letters, digits, - and _ only')} />
          )}
        />
      </Field>
    </Section>
  );
}

function RoutingSection({ control, register, errors, domains }: Sub & { domains: Domain[] }) {
  const { fields, append, remove } = useFieldArray({ control, name: 'rules' });
  const canWrite = useCanWrite();
  const rules = useWatch({ control, name: 'rules' });
  const hostnames = useWatch({ control, name: 'hostnames' });
  const domainId = useWatch({ control, name: 'domainId' });
  const domain = domains.find((d) => d.id === domainId);
  const hosts = (hostnames ?? []).map((h) => hostnameToFqdn(h, domain)).filter(Boolean);
  return (
    <Section title="Match rules" description="Extra conditions besides the hostnames. Rules of the same type are OR-ed; different types are AND-ed with the hostnames.">
      <div className="stack">
        <div className="stack-sm">
          <span className="field-label">Match rules <span className="optional">(optional)</span></span>
          {fields.map((f, i) => {
            const r = rules?.[i];
            const named = r?.type === 'header' || r?.type === 'query';
            const e = errors.rules?.[i];
            return (
              <div key={f.id} className="stack-sm">
                <div className="row-fields">
                  <div className="rf-side" style={{ width: 150, flex: 'none' }}>
                    <label className="sr-only" htmlFor={`r-type-${i}`}>
                      Rule {i + 1} type
                    </label>
                    <select id={`r-type-${i}`} className="select" {...register(`rules.${i}.type`)}>
                      {Object.entries(ruleLabels).map(([k, v]) => (
                        <option key={k} value={k}>
                          {v}
                        </option>
                      ))}
                    </select>
                  </div>
                  {named ? (
                    <div className="rf-side" style={{ flex: '1 1 30%' }}>
                      <label className="sr-only" htmlFor={`r-name-${i}`}>
                        Rule {i + 1} name
                      </label>
                      <input id={`r-name-${i}`} className="input mono" placeholder={r?.type === 'header' ? 'X-Env' : 'param'} aria-invalid={e?.name ? true : undefined} {...register(`rules.${i}.name`)} />
                    </div>
                  ) : null}
                  <div className="rf-main">
                    <label className="sr-only" htmlFor={`r-value-${i}`}>
                      Rule {i + 1} value
                    </label>
                    {r?.type === 'method' ? (
                      <select id={`r-value-${i}`} className="select" {...register(`rules.${i}.value`)}>
                        <option value="">Choose…</option>
                        {['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].map((m) => (
                          <option key={m}>{m}</option>
                        ))}
                      </select>
                    ) : (
                      <input id={`r-value-${i}`} className="input mono" placeholder={r?.type === 'clientIP' ? '192.168.0.0/16' : r?.type?.startsWith('path') ? '/api' : 'value'} aria-invalid={e?.value ? true : undefined} {...register(`rules.${i}.value`)} />
                    )}
                  </div>
                  {canWrite ? <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={`Remove rule ${i + 1}`} onClick={() => remove(i)} /> : null}
                </div>
                {e?.name?.message ? <FieldErrorText message={`Name: ${e.name.message}`} /> : null}
                {e?.value?.message ? <FieldErrorText message={e.value.message} /> : null}
              </div>
            );
          })}
          {canWrite ? (
            <div>
              <Button size="sm" icon="plus" onClick={() => append({ type: 'pathPrefix', name: '', value: '' })}>
                Add rule
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
  const { fields, append, remove } = useFieldArray({ control, name: 'headers' });
  const canWrite = useCanWrite();
  const rootError = errors.headers?.root?.message ?? errors.headers?.message;
  return (
    <div className="stack-sm">
      <span className="field-label">
        Request headers <span className="optional">(optional)</span>
      </span>
      {fields.map((f, i) => {
        const e = errors.headers?.[i];
        return (
          <div key={f.id} className="stack-sm">
            <div className="row-fields">
              <div className="rf-side" style={{ flex: '1 1 40%' }}>
                <label className="sr-only" htmlFor={`h-name-${i}`}>
                  Header {i + 1} name
                </label>
                <input id={`h-name-${i}`} className="input mono" placeholder="X-Forwarded-Proto" aria-invalid={e?.name ? true : undefined} {...register(`headers.${i}.name`)} />
              </div>
              <div className="rf-main">
                <label className="sr-only" htmlFor={`h-value-${i}`}>
                  Header {i + 1} value
                </label>
                <input id={`h-value-${i}`} className="input mono" placeholder="https" aria-invalid={e?.value ? true : undefined} {...register(`headers.${i}.value`)} />
              </div>
              {canWrite ? <Button className="rf-end" variant="ghost" iconOnly icon="trash" aria-label={`Remove header ${i + 1}`} onClick={() => remove(i)} /> : null}
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
            Add header
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function ExpirySection({ control, register, errors, service, isCreate, defaultLifetime }: Sub & { service?: Service; isCreate: boolean; defaultLifetime: number }) {
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
    ...(isCreate ? [{ v: 'default' as const, label: defaultLifetime ? `Default (${formatDuration(defaultLifetime)})` : 'Never' }] : []),
    ...(isCreate && !defaultLifetime ? [] : [{ v: 'never' as const, label: 'Never' }]),
    { v: 'at', label: 'At a date' },
    { v: 'duration', label: 'After a duration' },
  ];
  return (
    <Section title="Lifetime" description="When the lifetime ends the service is disabled automatically. A duration counts from when it is enabled.">
      <div className="stack">
        <div className="radio-cards" role="radiogroup" aria-label="Expiry">
          {options.map((o) => (
            <label key={o.v} className="radio-card">
              <input type="radio" value={o.v} {...register('expiryType')} />
              <span>{o.label}</span>
            </label>
          ))}
        </div>
        {errors.expiryType?.message ? <FieldErrorText message={errors.expiryType.message} /> : null}
        {type === 'at' ? (
          <Field label="Expires at" error={errors.expiryAt?.message} hint="Your local time.">
            <input type="datetime-local" className="input" style={{ maxWidth: 260 }} {...register('expiryAt')} />
          </Field>
        ) : null}
        {type === 'duration' ? (
          <div className="row" style={{ alignItems: 'flex-start' }}>
            <Field label="Duration" error={errors.expiryAmount?.message}>
              <input className="input" style={{ width: 110 }} inputMode="numeric" {...register('expiryAmount', { valueAsNumber: true })} />
            </Field>
            <Field label="Unit">
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
                <strong>This moment has passed: the service will be disabled when saved.</strong>
              ) : (
                <>
                  <strong>{enabled ? `Expires in ${cd.text}` : `Would expire ${cd.text} after enabling`}</strong>
                  <div className="muted small">{formatDateTime(projected)}</div>
                </>
              )}
            </div>
          </div>
        ) : null}
        {service?.expiresAt && !service.enabled ? (
          <p className="muted small">Expired at {formatDateTime(service.expiresAt)}. Change the lifetime and enable it to bring it back.</p>
        ) : null}
      </div>
    </Section>
  );
}
