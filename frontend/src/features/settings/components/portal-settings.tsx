import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { ReadOnlyFieldset } from '@/components/ui/read-only';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { useUnsavedGuard } from '@/components/ui/unsaved-guard';
import type { PortalSettings as Settings } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { usePortalSettings, useSavePortalSettings } from '../api/portal';

const HOUR = 3600;
const DAY = 24 * HOUR;
/** The server keeps logos up to 64 KiB as a data URL: about 48 KiB of image. */
const MAX_LOGO_BYTES = 48 * 1024;

const schema = z.object({
  host: z
    .string()
    .trim()
    .refine((v) => v === '' || /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{1,63}$/i.test(v), { error: () => i18n.t('settings:portal.hostInvalid') }),
  name: z.string().trim().min(1, { error: () => i18n.t('settings:schema.enterName') }).max(64, { error: () => i18n.t('settings:schema.atMost', { max: 64 }) }),
  logo: z.string(),
  accentColor: z.string().regex(/^#[0-9a-f]{6}$/i, { error: () => i18n.t('settings:portal.pickColour') }),
  idleHours: z.number({ error: () => i18n.t('settings:schema.enterNumber') }).min(0.1, { error: () => i18n.t('settings:portal.atLeast6Minutes') }).max(8760),
  rememberDays: z.number({ error: () => i18n.t('settings:schema.enterNumber') }).min(0.01).max(365),
  absoluteDays: z.number({ error: () => i18n.t('settings:schema.enterNumber') }).min(0.01).max(365),
});
type Values = z.infer<typeof schema>;

const toValues = (s: Settings): Values => ({
  host: s.host, name: s.name, logo: s.logo, accentColor: s.accentColor,
  idleHours: s.idleTimeoutSeconds / HOUR, rememberDays: s.rememberMeSeconds / DAY, absoluteDays: s.absoluteLifetimeSeconds / DAY,
});

export function PortalSettings() {
  const settings = usePortalSettings();
  if (settings.isPending) return <Card><LoadingRows /></Card>;
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => settings.refetch()} />;
  return <PortalForm settings={settings.data} />;
}

function PortalForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation('settings');
  const save = useSavePortalSettings();
  const canWrite = useCanWrite();
  const [logoProblem, setLogoProblem] = useState<string | null>(null);
  const { register, handleSubmit, setError, setValue, watch, formState, reset } = useForm<Values>({
    resolver: zodResolver(schema),
    values: toValues(settings),
  });
  const guard = useUnsavedGuard(formState.isDirty);
  const logo = watch('logo');

  const upload = (file: File | undefined) => {
    setLogoProblem(null);
    if (!file) return;
    if (!/^image\/(png|jpeg|webp|gif|svg\+xml)$/.test(file.type)) return setLogoProblem(t('portal.logoType'));
    if (file.size > MAX_LOGO_BYTES) return setLogoProblem(t('portal.logoTooLarge'));
    const reader = new FileReader();
    reader.onload = () => setValue('logo', String(reader.result), { shouldDirty: true });
    reader.readAsDataURL(file);
  };

  const onSubmit = handleSubmit(async (v) => {
    const body: Settings = {
      host: v.host.trim(), name: v.name.trim(), logo: v.logo.trim(), accentColor: v.accentColor,
      idleTimeoutSeconds: Math.round(v.idleHours * HOUR), rememberMeSeconds: Math.round(v.rememberDays * DAY),
      absoluteLifetimeSeconds: Math.round(v.absoluteDays * DAY),
    };
    try {
      reset(toValues(await save.mutateAsync(body)));
    } catch (e) {
      applyServerErrors(e, setError, {
        map: (p) => ({ idleTimeoutSeconds: 'idleHours', rememberMeSeconds: 'rememberDays', absoluteLifetimeSeconds: 'absoluteDays' })[p] ?? p,
      });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      {guard.dialog}
      <Card>
        <CardHeader title={t('portal.title')} description={t('portal.description')} />
        <ReadOnlyFieldset readOnly={!canWrite} className="card-body stack">
          <Field label={t('portal.host')} optional error={formState.errors.host?.message} hint={t('portal.hostHint')}>
            <input className="input mono" placeholder={t('portal.hostPlaceholder')} autoCapitalize="off" spellCheck={false} {...register(`host`)} />
          </Field>
          <Field label={t('portal.name')} error={formState.errors.name?.message} hint={t('portal.nameHint')}>
            <input className="input" {...register(`name`)} />
          </Field>
          <Field label={t('portal.logo')} optional error={formState.errors.logo?.message ?? logoProblem ?? undefined} hint={t('portal.logoHint')}>
            <input className="input mono" placeholder={t('portal.logoPlaceholder')} value={logo.startsWith('data:') ? t('portal.uploaded') : logo} onChange={(e) => setValue('logo', e.target.value, { shouldDirty: true })} readOnly={logo.startsWith('data:')} />
          </Field>
          <div className="row" style={{ gap: 8, alignItems: 'center' }}>
            {logo ? <img src={logo} alt={t('portal.preview')} width={32} height={32} style={{ objectFit: 'contain' }} /> : null}
            <label className="btn btn-secondary btn-sm">
              {t('portal.upload')}
              <input type="file" accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml" hidden onChange={(e) => upload(e.target.files?.[0])} aria-label={t('portal.uploadLabel')} />
            </label>
            {logo ? (
              <Button size="sm" variant="ghost" onClick={() => setValue('logo', '', { shouldDirty: true })}>
                {t('portal.removeLogo')}
              </Button>
            ) : null}
          </div>
          <Field label={t('portal.accent')} error={formState.errors.accentColor?.message}>
            <input className="input" type="color" style={{ width: 64, padding: 2 }} {...register(`accentColor`)} />
          </Field>
          <Field label={t('portal.idle')} error={formState.errors.idleHours?.message} hint={t('portal.idleHint')}>
            <input className="input" type="number" step="any" {...register(`idleHours`, { valueAsNumber: true })} />
          </Field>
          <Field label={t('portal.remember')} error={formState.errors.rememberDays?.message} hint={t('portal.rememberHint')}>
            <input className="input" type="number" step="any" {...register(`rememberDays`, { valueAsNumber: true })} />
          </Field>
          <Field label={t('portal.absolute')} error={formState.errors.absoluteDays?.message} hint={t('portal.absoluteHint')}>
            <input className="input" type="number" step="any" {...register(`absoluteDays`, { valueAsNumber: true })} />
          </Field>
          {canWrite ? (
            <div>
              <Button type="submit" variant="primary" loading={save.isPending} disabled={!formState.isDirty}>
                {t('portal.save')}
              </Button>
            </div>
          ) : null}
        </ReadOnlyFieldset>
      </Card>
    </form>
  );
}
