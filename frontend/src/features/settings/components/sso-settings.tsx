import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { ReadOnlyFieldset } from '@/components/ui/read-only';
import { Switch } from '@/components/ui/switch';
import { TagInput } from '@/components/ui/tag-input';
import type { SsoSettings as Sso, SsoSettingsInput } from '@/lib/api-types';
import { useServices } from '@/lib/api/resources';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { useSaveSso, useSso } from '../api/settings';

const schema = z
  .object({
    enabled: z.boolean(),
    issuer: z.string().trim(),
    clientId: z.string().trim(),
    clientSecret: z.string(),
    scopes: z.array(z.string()),
    groupsClaim: z.string().trim(),
    sessionHours: z.number({ message: 'Enter a number of hours' }).positive('Must be positive').max(8760, 'At most a year'),
  })
  .superRefine((v, ctx) => {
    if (!v.enabled) return;
    if (!/^https?:\/\/\S+$/.test(v.issuer)) ctx.addIssue({ code: 'custom', path: ['issuer'], message: 'Enter the issuer URL, e.g. https://id.example.com' });
    if (!v.clientId) ctx.addIssue({ code: 'custom', path: ['clientId'], message: 'Enter the client ID' });
    if (!v.scopes.includes('openid')) ctx.addIssue({ code: 'custom', path: ['scopes'], message: 'The openid scope is required' });
  });
type Values = z.infer<typeof schema>;

const toValues = (s: Sso): Values => ({
  enabled: s.enabled,
  issuer: s.issuer ?? '',
  clientId: s.clientId ?? '',
  clientSecret: '',
  scopes: s.scopes?.length ? s.scopes : ['openid', 'email', 'profile', 'groups'],
  groupsClaim: s.groupsClaim || 'groups',
  sessionHours: s.sessionSeconds ? Math.round((s.sessionSeconds / 3600) * 100) / 100 : 24,
});

export function SsoSettings() {
  const sso = useSso();
  if (sso.isPending) return <Card><LoadingRows /></Card>;
  if (sso.isError) return <ErrorState error={sso.error} title="Could not load the single sign-on settings" onRetry={() => sso.refetch()} />;
  return <SsoForm sso={sso.data} />;
}

function SsoForm({ sso }: { sso: Sso }) {
  const save = useSaveSso();
  const canWrite = useCanWrite();
  const { register, control, handleSubmit, setError, formState, reset } = useForm<Values>({ resolver: zodResolver(schema), values: toValues(sso) });
  const onSubmit = handleSubmit(async (v) => {
    const body: SsoSettingsInput = {
      enabled: v.enabled,
      issuer: v.issuer,
      clientId: v.clientId,
      scopes: v.scopes,
      groupsClaim: v.groupsClaim,
      sessionSeconds: Math.round(v.sessionHours * 3600),
    };
    if (v.clientSecret) body.clientSecret = v.clientSecret;
    try {
      const saved = await save.mutateAsync(body);
      reset(toValues(saved));
    } catch (e) {
      applyServerErrors(e, setError, { map: (p) => (p === 'sessionSeconds' ? 'sessionHours' : p.replace(/^scopes\.\d+$/, 'scopes')) });
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Card>
        <CardHeader
          title="Single sign-on (OIDC)"
          description="Let people sign in with your identity provider (Authelia, Authentik, Keycloak, Google…) to reach protected services."
          actions={sso.enabled ? <Badge tone="success" icon="check">On</Badge> : <Badge icon="power">Off</Badge>}
        />
        <ReadOnlyFieldset readOnly={!canWrite} className="card-body stack">
          <Controller control={control} name="enabled" render={({ field }) => <Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} label="Enable single sign-on" />} />
          {sso.redirectUrl ? (
            <div className="field">
              <span className="field-label">Redirect URL</span>
              <div className="link-box">
                <input className="input mono" readOnly value={sso.redirectUrl} aria-label="Redirect URL to register at the identity provider" onFocus={(e) => e.currentTarget.select()} />
                <CopyButton text={sso.redirectUrl} size="md" />
              </div>
              <span className="field-hint">Register this as an allowed redirect (callback) URL of the client at your identity provider.</span>
            </div>
          ) : null}
          <div className="grid-2">
            <Field label="Issuer URL" error={formState.errors.issuer?.message}>
              <input className="input mono" placeholder="https://id.example.com" {...register('issuer')} />
            </Field>
            <Field label="Client ID" error={formState.errors.clientId?.message}>
              <input className="input mono" autoComplete="off" {...register('clientId')} />
            </Field>
          </div>
          <Field
            label={
              <>
                Client secret {sso.clientSecretSet ? <Badge tone="success" icon="lock">set</Badge> : <Badge icon="alert">not set</Badge>}
              </>
            }
            error={formState.errors.clientSecret?.message}
            hint={sso.clientSecretSet ? 'Stored and never shown. Type a new one to replace it, or leave empty to keep it.' : 'Kept on the server and never shown again.'}
          >
            <input className="input mono" type="password" autoComplete="new-password" placeholder={sso.clientSecretSet ? '•••••••• (unchanged)' : ''} {...register('clientSecret')} />
          </Field>
          <div className="grid-2">
            <Field label="Scopes" error={formState.errors.scopes?.message}>
              <Controller control={control} name="scopes" render={({ field }) => <TagInput value={field.value} onChange={field.onChange} suggestions={['openid', 'email', 'profile', 'groups']} />} />
            </Field>
            <Field label="Groups claim" error={formState.errors.groupsClaim?.message} hint="The ID token claim that lists the user's groups.">
              <input className="input mono" {...register('groupsClaim')} />
            </Field>
          </div>
          <Field label="Session length (hours)" error={formState.errors.sessionHours?.message} hint="How long a visitor stays signed in to protected services.">
            <input className="input" style={{ maxWidth: 160 }} inputMode="decimal" {...register('sessionHours', { valueAsNumber: true })} />
          </Field>
        </ReadOnlyFieldset>
        {canWrite ? (
          <div className="card-footer">
            <Button type="submit" variant="primary" loading={save.isPending} disabled={!formState.isDirty}>
              Save single sign-on
            </Button>
          </div>
        ) : null}
        {sso.enabled && !formState.isDirty ? <TestSignIn /> : null}
      </Card>
    </form>
  );
}

/**
 * Opens the end-user sign-in of a service protected by single sign-on in a new tab: the
 * same start URL Traefik's forward-auth sends a visitor to, so the test covers the
 * provider, the registered redirect URL and the service's allowed users.
 */
function TestSignIn() {
  const services = useServices();
  const withSso = (services.data ?? []).filter((s) => s.protection.sso && s.fqdns.length > 0);
  const [chosen, setChosen] = useState('');
  const svc = withSso.find((s) => s.id === chosen) ?? withSso[0];
  if (services.isPending) return null;
  if (!svc)
    return (
      <div className="card-footer muted small">Turn on single sign-on for a service to test the sign-in from here.</div>
    );
  const host = (svc.fqdns[0] ?? '').replace(/^\*\./, '');
  const href = `/api/auth/sso/start?service=${encodeURIComponent(svc.id)}&rd=${encodeURIComponent(`https://${host}/`)}`;
  return (
    <div className="card-footer row" style={{ gap: 8, flexWrap: 'wrap' }}>
      <label className="sr-only" htmlFor="sso-test-service">
        Service to test the sign-in with
      </label>
      <select id="sso-test-service" className="select" style={{ maxWidth: 260 }} value={svc.id} onChange={(e) => setChosen(e.target.value)}>
        {withSso.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
      <a className="btn" href={href} target="_blank" rel="noopener">
        Test sign-in
      </a>
      <span className="muted small">Opens the provider's sign-in in a new tab, as a visitor of {host} would see it.</span>
    </div>
  );
}
