import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
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
    .refine((v) => v === '' || /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{1,63}$/i.test(v), 'Enter a hostname such as auth.example.com'),
  name: z.string().trim().min(1, 'Enter a name').max(64, 'At most 64 characters'),
  logo: z.string(),
  accentColor: z.string().regex(/^#[0-9a-f]{6}$/i, 'Pick a colour'),
  idleHours: z.number({ message: 'Enter a number' }).min(0.1, 'At least 6 minutes').max(8760),
  rememberDays: z.number({ message: 'Enter a number' }).min(0.01).max(365),
  absoluteDays: z.number({ message: 'Enter a number' }).min(0.01).max(365),
  providerSignIn: z.boolean(),
  providerName: z.string().trim().max(64, 'At most 64 characters'),
  createPeople: z.boolean(),
});
type Values = z.infer<typeof schema>;

const toValues = (s: Settings): Values => ({
  host: s.host, name: s.name, logo: s.logo, accentColor: s.accentColor,
  idleHours: s.idleTimeoutSeconds / HOUR, rememberDays: s.rememberMeSeconds / DAY, absoluteDays: s.absoluteLifetimeSeconds / DAY,
  providerSignIn: s.providerSignIn ?? false, providerName: s.providerName ?? '', createPeople: s.createPeople ?? false,
});

export function PortalSettings() {
  const settings = usePortalSettings();
  if (settings.isPending) return <Card><LoadingRows /></Card>;
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => settings.refetch()} />;
  return <PortalForm settings={settings.data} />;
}

function PortalForm({ settings }: { settings: Settings }) {
  const save = useSavePortalSettings();
  const canWrite = useCanWrite();
  const [logoProblem, setLogoProblem] = useState<string | null>(null);
  const { register, handleSubmit, setError, setValue, watch, formState, reset } = useForm<Values>({
    resolver: zodResolver(schema),
    values: toValues(settings),
  });
  const guard = useUnsavedGuard(formState.isDirty);
  const logo = watch('logo');
  const host = watch('host');
  const providerOn = watch('providerSignIn');

  const upload = (file: File | undefined) => {
    setLogoProblem(null);
    if (!file) return;
    if (!/^image\/(png|jpeg|webp|gif|svg\+xml)$/.test(file.type)) return setLogoProblem('Choose a PNG, JPEG, WebP, GIF or SVG image.');
    if (file.size > MAX_LOGO_BYTES) return setLogoProblem('The image is too large: at most 48 KiB. Use a smaller image or a web address.');
    const reader = new FileReader();
    reader.onload = () => setValue('logo', String(reader.result), { shouldDirty: true });
    reader.readAsDataURL(file);
  };

  const onSubmit = handleSubmit(async (v) => {
    const body: Settings = {
      host: v.host.trim(), name: v.name.trim(), logo: v.logo.trim(), accentColor: v.accentColor,
      idleTimeoutSeconds: Math.round(v.idleHours * HOUR), rememberMeSeconds: Math.round(v.rememberDays * DAY),
      absoluteLifetimeSeconds: Math.round(v.absoluteDays * DAY),
      providerSignIn: v.providerSignIn, providerName: v.providerName.trim(), createPeople: v.createPeople,
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
        <CardHeader title="Sign-in portal" description="Where people sign in once for every service, see their services and manage their account." />
        <ReadOnlyFieldset readOnly={!canWrite} className="card-body stack">
          <Field label="Portal host" optional error={formState.errors.host?.message} hint="For example auth.example.com. Only the portal answers on this host; leave empty for no portal.">
            <input className="input mono" placeholder="auth.example.com" autoCapitalize="off" spellCheck={false} {...register('host')} />
          </Field>
          <Field label="Name" error={formState.errors.name?.message} hint="Shown to people on the portal's pages.">
            <input className="input" {...register('name')} />
          </Field>
          <Field label="Logo" optional error={formState.errors.logo?.message ?? logoProblem ?? undefined} hint="A web address (https://…) or a small uploaded image.">
            <input className="input mono" placeholder="https://example.com/logo.png" value={logo.startsWith('data:') ? '(uploaded image)' : logo} onChange={(e) => setValue('logo', e.target.value, { shouldDirty: true })} readOnly={logo.startsWith('data:')} />
          </Field>
          <div className="row" style={{ gap: 8, alignItems: 'center' }}>
            {logo ? <img src={logo} alt="Logo preview" width={32} height={32} style={{ objectFit: 'contain' }} /> : null}
            <label className="btn btn-secondary btn-sm">
              Upload image
              <input type="file" accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml" hidden onChange={(e) => upload(e.target.files?.[0])} aria-label="Upload a logo" />
            </label>
            {logo ? (
              <Button size="sm" variant="ghost" onClick={() => setValue('logo', '', { shouldDirty: true })}>
                Remove logo
              </Button>
            ) : null}
          </div>
          <Field label="Accent colour" error={formState.errors.accentColor?.message}>
            <input className="input" type="color" style={{ width: 64, padding: 2 }} {...register('accentColor')} />
          </Field>
          <Field label="Idle timeout (hours)" error={formState.errors.idleHours?.message} hint="A portal session unused this long ends.">
            <input className="input" type="number" step="any" {...register('idleHours', { valueAsNumber: true })} />
          </Field>
          <Field label="Remember me (days)" error={formState.errors.rememberDays?.message} hint="Idle timeout when the person ticks “Keep me signed in”.">
            <input className="input" type="number" step="any" {...register('rememberDays', { valueAsNumber: true })} />
          </Field>
          <Field label="Absolute lifetime (days)" error={formState.errors.absoluteDays?.message} hint="Every portal session ends this long after sign-in, however active.">
            <input className="input" type="number" step="any" {...register('absoluteDays', { valueAsNumber: true })} />
          </Field>
          <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
            <legend className="small" style={{ fontWeight: 600 }}>Sign in with the OpenID provider</legend>
            <label className="checkbox">
              <input type="checkbox" {...register('providerSignIn')} /> Offer “Sign in with …” on the portal (the provider set under Access, Single sign-on)
            </label>
            {providerOn ? (
              <>
                <Field label="Button name" optional error={formState.errors.providerName?.message} hint="The button reads “Sign in with” and this name, for example your company or the provider.">
                  <input className="input" placeholder="single sign-on" {...register('providerName')} />
                </Field>
                <label className="checkbox">
                  <input type="checkbox" {...register('createPeople')} /> Create a person at their first sign-in when no one has their verified e-mail address
                </label>
                <p className="small muted">
                  Register this redirect address at the provider:{' '}
                  <span className="mono">{host.trim() ? `https://${host.trim()}/api/portal/sso/callback` : '(set the portal host first)'}</span>. People are
                  matched by the provider’s account, then by a verified e-mail address; groups the provider lists join the directory’s groups of the same name.
                </p>
              </>
            ) : null}
          </fieldset>
          {canWrite ? (
            <div>
              <Button type="submit" variant="primary" loading={save.isPending} disabled={!formState.isDirty}>
                Save portal
              </Button>
            </div>
          ) : null}
        </ReadOnlyFieldset>
      </Card>
    </form>
  );
}
