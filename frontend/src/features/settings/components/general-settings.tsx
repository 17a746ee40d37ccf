import { DurationUnitOptions } from '@/components/ui/duration-unit-options';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { ReadOnlyFieldset } from '@/components/ui/read-only';
import { TagInput } from '@/components/ui/tag-input';
import { useUnsavedGuard } from '@/components/ui/unsaved-guard';
import type { GlobalConfig } from '@/lib/api-types';
import { entrypointChoices, useGlobalConfig, useProxyEntrypoints, useProxyMiddlewares } from '@/lib/api/resources';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { splitDuration } from '@/lib/format';
import { useSaveConfig } from '../api/settings';

const schema = z
  .object({
    adminDomain: z
      .string()
      .trim()
      .refine((v) => v === '' || /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{1,63}$/i.test(v), { error: () => i18n.t('settings:general.hostnameInvalid') }),
    defaultEntrypoints: z.array(z.string()),
    globalMiddlewares: z.array(z.string()),
    lifetimeMode: z.enum(['never', 'duration']),
    lifetimeAmount: z.number({ error: () => i18n.t('settings:schema.enterNumber') }),
    lifetimeUnit: z.number(),
  })
  .superRefine((v, ctx) => {
    if (v.lifetimeMode === 'duration' && !(v.lifetimeAmount > 0))
      ctx.addIssue({ code: 'custom', path: ['lifetimeAmount'], message: i18n.t('settings:schema.positiveNumber') });
  });
type Values = z.infer<typeof schema>;

function toValues(c: GlobalConfig): Values {
  const d = splitDuration(c.defaultLifetimeSeconds || 86400);
  return {
    adminDomain: c.adminDomain ?? '',
    defaultEntrypoints: c.defaultEntrypoints ?? [],
    globalMiddlewares: c.globalMiddlewares ?? [],
    lifetimeMode: c.defaultLifetimeSeconds > 0 ? 'duration' : 'never',
    lifetimeAmount: d.amount,
    lifetimeUnit: d.unit,
  };
}

export function GeneralSettings() {
  const config = useGlobalConfig();
  if (config.isPending) return <Card><LoadingRows /></Card>;
  if (config.isError) return <ErrorState error={config.error} onRetry={() => config.refetch()} />;
  return <GeneralForm config={config.data} />;
}

function GeneralForm({ config }: { config: GlobalConfig }) {
  const { t } = useTranslation(['settings', 'common']);
  const entrypoints = useProxyEntrypoints();
  const middlewares = useProxyMiddlewares();
  const save = useSaveConfig();
  const canWrite = useCanWrite();
  const { register, control, handleSubmit, setError, formState, reset } = useForm<Values>({
    resolver: zodResolver(schema),
    values: toValues(config),
  });
  const guard = useUnsavedGuard(formState.isDirty);
  const mode = useWatch({ control, name: 'lifetimeMode' });

  const onSubmit = handleSubmit(async (v) => {
    const body: GlobalConfig = {
      adminDomain: v.adminDomain.trim(),
      defaultEntrypoints: v.defaultEntrypoints,
      globalMiddlewares: v.globalMiddlewares,
      defaultLifetimeSeconds: v.lifetimeMode === 'never' ? 0 : Math.round(v.lifetimeAmount * v.lifetimeUnit),
    };
    try {
      const saved = await save.mutateAsync(body);
      reset(toValues(saved));
    } catch (e) {
      applyServerErrors(e, setError, {
        map: (p) => (p === 'defaultLifetimeSeconds' ? 'lifetimeAmount' : p.replace(/^(defaultEntrypoints|globalMiddlewares)\.\d+$/, '$1')),
      });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      {guard.dialog}
      <Card>
        <CardHeader title={t('general.title')} description={t('general.description')} />
        <ReadOnlyFieldset readOnly={!canWrite} className="card-body stack">
          <Field label={t('general.adminDomain')} optional error={formState.errors.adminDomain?.message} hint={t('general.adminDomainHint')}>
            <input className="input mono" placeholder={t('general.adminDomainPlaceholder')} autoCapitalize="off" spellCheck={false} {...register(`adminDomain`)} />
          </Field>
          <Field label={t('general.entrypoints')} error={formState.errors.defaultEntrypoints?.message} hint={t('general.entrypointsHint')}>
            <Controller
              control={control}
              name="defaultEntrypoints"
              render={({ field }) => <TagInput value={field.value} onChange={field.onChange} placeholder="websecure" suggestions={entrypointChoices(entrypoints.data?.items)} />}
            />
          </Field>
          <Field label={t('general.middlewares')} optional error={formState.errors.globalMiddlewares?.message} hint={t('general.middlewaresHint')}>
            <Controller
              control={control}
              name="globalMiddlewares"
              render={({ field }) => (
                <TagInput
                  value={field.value}
                  onChange={field.onChange}
                  placeholder="security-headers@file"
                  suggestions={(middlewares.data?.items ?? []).map((m) => (m.name.includes('@') ? m.name : `${m.name}@${m.provider}`))}
                />
              )}
            />
          </Field>
          <div className="field">
            <span className="field-label">{t('general.lifetime')}</span>
            <div className="radio-cards" role="radiogroup" aria-label={t('general.lifetime')}>
              <label className="radio-card">
                <input type="radio" value="never" {...register(`lifetimeMode`)} />
                <span>{t('general.never')}</span>
              </label>
              <label className="radio-card">
                <input type="radio" value="duration" {...register(`lifetimeMode`)} />
                <span>{t('general.after')}</span>
              </label>
            </div>
            {mode === 'duration' ? (
              <div className="row" style={{ alignItems: 'flex-start', marginTop: 8 }}>
                <Field label={t('general.amount')} error={formState.errors.lifetimeAmount?.message} hideLabel>
                  <input className="input" style={{ width: 110 }} inputMode="numeric" {...register(`lifetimeAmount`, { valueAsNumber: true })} />
                </Field>
                <Field label={t('general.unit')} hideLabel>
                  <select className="select" style={{ width: 130 }} {...register(`lifetimeUnit`, { valueAsNumber: true })}>
                    <DurationUnitOptions />
                  </select>
                </Field>
              </div>
            ) : null}
            <span className="field-hint">{t('general.lifetimeHint')}</span>
          </div>
        </ReadOnlyFieldset>
        {canWrite ? (
          <div className="card-footer">
            <Button disabled={!formState.isDirty || save.isPending} onClick={() => reset()}>
              {t('general.discard')}
            </Button>
            <Button type="submit" variant="primary" loading={save.isPending} disabled={!formState.isDirty}>
              {t('general.save')}
            </Button>
          </div>
        ) : null}
      </Card>
    </form>
  );
}
