import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Controller, useFieldArray, useForm, useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, FieldErrorText } from '@/components/ui/field';
import { ReadOnlyFieldset } from '@/components/ui/read-only';
import { TagInput } from '@/components/ui/tag-input';
import { useUnsavedGuard } from '@/components/ui/unsaved-guard';
import type { DnsProvider, ManagedState } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { useDnsProviders, useSaveManagedConfig } from '../api/managed';
import { managedSchema, type ManagedValues } from './managed-schema';

/** Entrypoint protocols: '' is HTTP. */
const protocols = ['', 'tcp', 'udp'] as const;

function toValues(s: ManagedState): ManagedValues {
  const c = s.config;
  return {
    logLevel: (['DEBUG', 'INFO', 'WARN', 'ERROR'].includes(c.logLevel) ? c.logLevel : 'INFO') as ManagedValues['logLevel'],
    entrypoints: (c.entrypoints ?? []).map((e) => ({ name: e.name, host: e.host ?? '', port: e.port, tls: !!e.tls, resolver: e.resolver ?? '', redirectTo: e.redirectTo ?? '',
      protocol: e.protocol === 'tcp' || e.protocol === 'udp' ? e.protocol : '' })),
    resolvers: (c.resolvers ?? []).map((r) => ({
      name: r.name,
      email: r.email ?? '',
      challenge: r.challenge,
      httpEntrypoint: r.httpEntrypoint ?? '',
      dnsProvider: r.dnsProvider ?? '',
      dnsResolvers: r.dnsResolvers ?? [],
      propagationDelaySeconds: r.propagationDelaySeconds ?? 0,
    })),
  };
}

type Sub = { control: Control<ManagedValues>; register: UseFormRegister<ManagedValues>; errors: FieldErrors<ManagedValues> };

export function StaticConfigForm({ state }: { state: ManagedState }) {
  const { t } = useTranslation('managed');
  const save = useSaveManagedConfig();
  const providers = useDnsProviders();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, control, handleSubmit, setError, formState, reset } = useForm<ManagedValues>({ resolver: zodResolver(managedSchema), values: toValues(state) });
  const guard = useUnsavedGuard(formState.isDirty && !save.isPending);
  const canWrite = useCanWrite();
  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const saved = await save.mutateAsync({
        logLevel: v.logLevel,
        entrypoints: v.entrypoints.map((e) => ({ ...e, name: e.name.trim() })),
        resolvers: v.resolvers.map((r) => ({ ...r, name: r.name.trim(), email: r.email.trim() })),
      });
      if (saved?.config) reset(toValues(saved));
    } catch (e) {
      const rest = applyServerErrors(e, setError, { map: (p) => p.replace(/^config\./, '').replace(/^(resolvers\.\d+\.dnsResolvers)\.\d+$/, '$1') });
      if (rest.length) setFormError(rest.join(' · '));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="stack" style={{ gap: 20 }}>
      {guard.dialog}
      {formError ? (
        <Alert tone="danger" title={t('form.notSaved')}>
          {formError}
        </Alert>
      ) : null}
      <ReadOnlyFieldset readOnly={!canWrite} className="stack" style={{ gap: 20 }}>
        <EntrypointsCard control={control} register={register} errors={errors(formState.errors)} />
        <ResolversCard control={control} register={register} errors={errors(formState.errors)} providers={providers.data ?? []} credentials={state.credentials.map((c) => c.name)} />
        <Card>
          <div className="card-body row-between">
            <Field label={t('form.logLevel')}>
              <select className="select" style={{ width: 160 }} {...register('logLevel')}>
                {logLevels.map((l) => (
                  <option key={l}>{l}</option>
                ))}
              </select>
            </Field>
            {canWrite ? (
              <div className="row">
                <Button disabled={!formState.isDirty || save.isPending} onClick={() => reset()}>
                  {t('form.discard')}
                </Button>
                <Button type="submit" variant="primary" loading={save.isPending} disabled={!formState.isDirty}>
                  {t('form.save')}
                </Button>
              </div>
            ) : null}
          </div>
        </Card>
      </ReadOnlyFieldset>
    </form>
  );
}

const errors = (e: FieldErrors<ManagedValues>) => e;

/** Traefik's log levels, written as in its configuration. */
const logLevels = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;

function EntrypointsCard({ control, register, errors }: Sub) {
  const { t } = useTranslation('managed');
  const eps = useFieldArray({ control, name: 'entrypoints' });
  const values = useWatch({ control, name: 'entrypoints' }) ?? [];
  const resolvers = useWatch({ control, name: 'resolvers' }) ?? [];
  const canWrite = useCanWrite();
  return (
    <Card>
      <CardHeader
        title={t('entrypoints.title')}
        description={t('entrypoints.description')}
        actions={
          canWrite ? (
            <Button size="sm" icon="plus" onClick={() => eps.append({ name: '', host: '', port: 8443, tls: true, resolver: resolvers[0]?.name ?? '', redirectTo: '', protocol: '' })}>
              {t('entrypoints.add')}
            </Button>
          ) : null
        }
      />
      <div className="card-body stack">
        {eps.fields.length === 0 ? <p className="muted">{t('entrypoints.none')}</p> : null}
        {eps.fields.map((f, i) => {
          const e = errors.entrypoints?.[i];
          const others = values.filter((_, j) => j !== i).map((x) => x.name).filter(Boolean);
          return (
            <div key={f.id} className="card" style={{ padding: 14 }}>
              <div className="grid-4" style={{ alignItems: 'start' }}>
                <Field label={t('entrypoints.name')} error={e?.name?.message}>
                  <input className="input mono" placeholder={t('entrypoints.namePlaceholder')} {...register(`entrypoints.${i}.name`)} />
                </Field>
                <Field label={t('entrypoints.port')} error={e?.port?.message}>
                  <input className="input mono" inputMode="numeric" {...register(`entrypoints.${i}.port`, { valueAsNumber: true })} />
                </Field>
                <Field label={t('entrypoints.resolver')} optional error={e?.resolver?.message}>
                  <select className="select" {...register(`entrypoints.${i}.resolver`)}>
                    <option value="">{t('entrypoints.noResolver')}</option>
                    {resolvers.map((r) => r.name).filter(Boolean).map((n) => (
                      <option key={n} value={n}>{n}</option>
                    ))}
                  </select>
                </Field>
                <Field label={t('entrypoints.redirectTo')} optional error={e?.redirectTo?.message}>
                  <select className="select" {...register(`entrypoints.${i}.redirectTo`)}>
                    <option value="">{t('entrypoints.noRedirect')}</option>
                    {others.map((n) => (
                      <option key={n} value={n}>{n}</option>
                    ))}
                  </select>
                </Field>
              </div>
              <div className="row-between" style={{ marginTop: 10, alignItems: 'flex-end' }}>
                <div className="row" style={{ gap: 16, alignItems: 'flex-end' }}>
                  <Field label={t('entrypoints.protocol')} error={e?.protocol?.message} hint={t('entrypoints.protocolHint')}>
                    <select className="select" {...register(`entrypoints.${i}.protocol`)}>
                      {protocols.map((p) => (
                        <option key={p} value={p}>{t(`entrypoints.protocols.${p || 'http'}`)}</option>
                      ))}
                    </select>
                  </Field>
                  <Field label={t('entrypoints.host')} optional error={e?.host?.message} hint={t('entrypoints.hostHint')}>
                    <input className="input mono" style={{ maxWidth: 200 }} placeholder={t('entrypoints.hostPlaceholder')} {...register(`entrypoints.${i}.host`)} />
                  </Field>
                  <label className="checkbox" style={{ marginBottom: 28 }}>
                    <input type="checkbox" {...register(`entrypoints.${i}.tls`)} />
                    <span>{t('entrypoints.tls')}</span>
                  </label>
                  {e?.tls?.message ? <span className="field-error">{e.tls.message}</span> : null}
                </div>
                {canWrite ? (
                  <Button size="sm" variant="ghost" icon="trash" onClick={() => eps.remove(i)} aria-label={t('entrypoints.removeLabel', { name: values[i]?.name || i + 1 })}>
                    {t('entrypoints.remove')}
                  </Button>
                ) : null}
              </div>
            </div>
          );
        })}
      </div>
    </Card>
  );
}

function ResolversCard({ control, register, errors, providers, credentials }: Sub & { providers: DnsProvider[]; credentials: string[] }) {
  const { t } = useTranslation('managed');
  const rs = useFieldArray({ control, name: 'resolvers' });
  const values = useWatch({ control, name: 'resolvers' }) ?? [];
  const entrypoints = (useWatch({ control, name: 'entrypoints' }) ?? []).map((e) => e.name).filter(Boolean);
  const canWrite = useCanWrite();
  return (
    <Card>
      <CardHeader
        title={t('resolvers.title')}
        description={t('resolvers.description')}
        actions={
          canWrite ? (
            <Button
              size="sm"
              icon="plus"
              onClick={() => rs.append({ name: rs.fields.length ? `resolver${rs.fields.length + 1}` : 'letsencrypt', email: '', challenge: 'tlsalpn', httpEntrypoint: '', dnsProvider: '', dnsResolvers: [], propagationDelaySeconds: 0 })}
            >
              {t('resolvers.add')}
            </Button>
          ) : null
        }
      />
      <div className="card-body stack">
        {rs.fields.length === 0 ? <p className="muted">{t('resolvers.none')}</p> : null}
        {rs.fields.map((f, i) => {
          const e = errors.resolvers?.[i];
          const v = values[i];
          const provider = providers.find((p) => p.code === v?.dnsProvider);
          return (
            <div key={f.id} className="card" style={{ padding: 14 }}>
              <div className="stack">
                <div className="grid-3" style={{ alignItems: 'start' }}>
                  <Field label={t('resolvers.name')} error={e?.name?.message}>
                    <input className="input mono" {...register(`resolvers.${i}.name`)} />
                  </Field>
                  <Field label={t('resolvers.email')} error={e?.email?.message}>
                    <input className="input" type="email" placeholder={t('resolvers.emailPlaceholder')} {...register(`resolvers.${i}.email`)} />
                  </Field>
                  <Field label={t('resolvers.challenge')} error={e?.challenge?.message}>
                    <select className="select" {...register(`resolvers.${i}.challenge`)}>
                      <option value="tlsalpn">{t('resolvers.tlsalpn')}</option>
                      <option value="http">{t('resolvers.http')}</option>
                      <option value="dns">{t('resolvers.dns')}</option>
                    </select>
                  </Field>
                </div>
                {v?.challenge === 'http' ? (
                  <Field label={t('resolvers.httpEntrypoint')} error={e?.httpEntrypoint?.message}>
                    <select className="select" style={{ maxWidth: 260 }} {...register(`resolvers.${i}.httpEntrypoint`)}>
                      <option value="">{t('resolvers.choose')}</option>
                      {entrypoints.map((n) => (
                        <option key={n} value={n}>{n}</option>
                      ))}
                    </select>
                  </Field>
                ) : null}
                {v?.challenge === 'dns' ? (
                  <div className="stack">
                    <div className="grid-2" style={{ alignItems: 'start' }}>
                      <Field label={t('resolvers.dnsProvider')} error={e?.dnsProvider?.message} hint={providers.length ? undefined : t('resolvers.noProviders')}>
                        {providers.length ? (
                          <select className="select" {...register(`resolvers.${i}.dnsProvider`)}>
                            <option value="">{t('resolvers.chooseProvider')}</option>
                            {providers.map((p) => (
                              <option key={p.code} value={p.code}>{p.name}</option>
                            ))}
                          </select>
                        ) : (
                          <input className="input mono" placeholder={t('resolvers.providerPlaceholder')} {...register(`resolvers.${i}.dnsProvider`)} />
                        )}
                      </Field>
                      <Field label={t('resolvers.delay')} error={e?.propagationDelaySeconds?.message}>
                        <input className="input" inputMode="numeric" {...register(`resolvers.${i}.propagationDelaySeconds`, { valueAsNumber: true })} />
                      </Field>
                    </div>
                    {provider ? (
                      <div className="stack-sm" data-testid="dns-fields">
                        <span className="field-label">{t('resolvers.needs', { name: provider.name })}</span>
                        <div className="row">
                          {provider.fields.map((fname) =>
                            credentials.includes(fname) ? (
                              <Badge key={fname} tone="success" icon="check">
                                {t('resolvers.fieldSet', { name: fname })}
                              </Badge>
                            ) : (
                              <Badge key={fname} tone="warning" icon="alert">
                                {t('resolvers.fieldMissing', { name: fname })}
                              </Badge>
                            ),
                          )}
                        </div>
                        {provider.optional?.length ? (
                          <span className="field-hint">
                            <Trans t={t} i18nKey="resolvers.optional" values={{ names: provider.optional.join(', ') }} components={{ mono: <span className="mono" /> }} />
                          </span>
                        ) : null}
                        <span className="field-hint">
                          {t('resolvers.enterBelow')}
                          {provider.docsUrl ? (
                            <>
                              {' '}
                              <a href={provider.docsUrl} target="_blank" rel="noreferrer noopener">
                                {t('resolvers.docs', { name: provider.name })}
                              </a>
                            </>
                          ) : null}
                        </span>
                      </div>
                    ) : null}
                    <Field label={t('resolvers.dnsResolvers')} optional hint={t('resolvers.dnsResolversHint')}>
                      <Controller control={control} name={`resolvers.${i}.dnsResolvers`} render={({ field }) => <TagInput value={field.value} onChange={field.onChange} placeholder={t('resolvers.dnsResolversPlaceholder')} />} />
                    </Field>
                  </div>
                ) : null}
                {e?.root?.message ? <FieldErrorText message={e.root.message} /> : null}
                <div className="row-between">
                  {!v?.email?.trim() ? (
                    <Badge tone="warning" icon="alert" title={t('resolvers.inactiveTitle')}>
                      {t('resolvers.inactive')}
                    </Badge>
                  ) : (
                    <span />
                  )}
                  {canWrite ? (
                    <Button size="sm" variant="ghost" icon="trash" onClick={() => rs.remove(i)} aria-label={t('resolvers.removeLabel', { name: v?.name || i + 1 })}>
                      {t('resolvers.remove')}
                    </Button>
                  ) : null}
                </div>
              </div>
            </div>
          );
        })}
      </div>
    </Card>
  );
}
