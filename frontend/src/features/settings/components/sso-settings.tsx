import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
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
    sessionHours: z
      .number({ error: () => i18n.t('settings:sso.enterHours') })
      .positive({ error: () => i18n.t('settings:schema.positive') })
      .max(8760, { error: () => i18n.t('settings:sso.atMostYear') }),
  })
  .superRefine((v, ctx) => {
    if (!v.enabled) return;
    if (!/^https?:\/\/\S+$/.test(v.issuer)) ctx.addIssue({ code: 'custom', path: ['issuer'], message: i18n.t('settings:sso.issuerInvalid') });
    if (!v.clientId) ctx.addIssue({ code: 'custom', path: ['clientId'], message: i18n.t('settings:sso.enterClientId') });
    if (!v.scopes.includes('openid')) ctx.addIssue({ code: 'custom', path: ['scopes'], message: i18n.t('settings:sso.openidRequired') });
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
  const { t } = useTranslation('settings');
  const sso = useSso();
  if (sso.isPending) return <Card><LoadingRows /></Card>;
  if (sso.isError) return <ErrorState error={sso.error} title={t('sso.loadFailed')} onRetry={() => sso.refetch()} />;
  return <SsoForm sso={sso.data} />;
}

function SsoForm({ sso }: { sso: Sso }) {
  const { t } = useTranslation(['settings', 'common']);
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
          title={t('sso.title')}
          description={t('sso.description')}
          actions={
            sso.enabled ? (
              <Badge tone="success" icon="check">
                {t('common:words.on')}
              </Badge>
            ) : (
              <Badge icon="power">{t('common:words.off')}</Badge>
            )
          }
        />
        <ReadOnlyFieldset readOnly={!canWrite} className="card-body stack">
          <Controller control={control} name="enabled" render={({ field }) => <Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} label={t('sso.enable')} />} />
          {sso.redirectUrl ? (
            <div className="field">
              <span className="field-label">{t('sso.redirect')}</span>
              <div className="link-box">
                <input className="input mono" readOnly value={sso.redirectUrl} aria-label={t('sso.redirectLabel')} onFocus={(e) => e.currentTarget.select()} />
                <CopyButton text={sso.redirectUrl} size="md" />
              </div>
              <span className="field-hint">{t('sso.redirectHint')}</span>
            </div>
          ) : null}
          <div className="grid-2">
            <Field label={t('sso.issuer')} error={formState.errors.issuer?.message}>
              <input className="input mono" placeholder={t('sso.issuerPlaceholder')} {...register(`issuer`)} />
            </Field>
            <Field label={t('sso.clientId')} error={formState.errors.clientId?.message}>
              <input className="input mono" autoComplete="off" {...register(`clientId`)} />
            </Field>
          </div>
          <Field
            label={
              <>
                {t('sso.clientSecret')}{' '}
                {sso.clientSecretSet ? (
                  <Badge tone="success" icon="lock">
                    {t('sso.secretSet')}
                  </Badge>
                ) : (
                  <Badge icon="alert">{t('sso.secretNotSet')}</Badge>
                )}
              </>
            }
            error={formState.errors.clientSecret?.message}
            hint={sso.clientSecretSet ? t('sso.secretHintSet') : t('sso.secretHintNew')}
          >
            <input className="input mono" type="password" autoComplete="new-password" placeholder={sso.clientSecretSet ? t('sso.unchanged') : ''} {...register(`clientSecret`)} />
          </Field>
          <div className="grid-2">
            <Field label={t('sso.scopes')} error={formState.errors.scopes?.message}>
              <Controller control={control} name="scopes" render={({ field }) => <TagInput value={field.value} onChange={field.onChange} suggestions={['openid', 'email', 'profile', 'groups']} />} />
            </Field>
            <Field label={t('sso.groupsClaim')} error={formState.errors.groupsClaim?.message} hint={t('sso.groupsClaimHint')}>
              <input className="input mono" {...register(`groupsClaim`)} />
            </Field>
          </div>
          <Field label={t('sso.session')} error={formState.errors.sessionHours?.message} hint={t('sso.sessionHint')}>
            <input className="input" style={{ maxWidth: 160 }} inputMode="decimal" {...register(`sessionHours`, { valueAsNumber: true })} />
          </Field>
        </ReadOnlyFieldset>
        {canWrite ? (
          <div className="card-footer">
            <Button type="submit" variant="primary" loading={save.isPending} disabled={!formState.isDirty}>
              {t('sso.save')}
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
  const { t } = useTranslation('settings');
  const services = useServices();
  const withSso = (services.data ?? []).filter((s) => s.protection.sso && s.fqdns.length > 0);
  const [chosen, setChosen] = useState('');
  const svc = withSso.find((s) => s.id === chosen) ?? withSso[0];
  if (services.isPending) return null;
  if (!svc)
    return (
      <div className="card-footer muted small">{t('sso.testNone')}</div>
    );
  const host = (svc.fqdns[0] ?? '').replace(/^\*\./, '');
  const href = `/api/auth/sso/start?service=${encodeURIComponent(svc.id)}&rd=${encodeURIComponent(`https://${host}/`)}`;
  return (
    <div className="card-footer row" style={{ gap: 8, flexWrap: 'wrap' }}>
      <label className="sr-only" htmlFor="sso-test-service">
        {t('sso.testService')}
      </label>
      <select id="sso-test-service" className="select" style={{ maxWidth: 260 }} value={svc.id} onChange={(e) => setChosen(e.target.value)}>
        {withSso.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
      <a className="btn" href={href} target="_blank" rel="noopener">
        {t('sso.test')}
      </a>
      <span className="muted small">{t('sso.testHint', { host })}</span>
    </div>
  );
}
