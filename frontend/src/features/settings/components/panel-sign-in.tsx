import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { Trans, useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { DataTable } from '@/components/ui/data-table';
import { FieldErrorText } from '@/components/ui/field';
import { ConfirmDialog } from '@/components/ui/modal';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { AdminOnlyNote, isRoleRefusal, ReadOnlyFieldset } from '@/components/ui/read-only';
import { Switch } from '@/components/ui/switch';
import type { AdminSsoSettings } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { useAdminSso, useSaveAdminSso } from '../api/panel-sign-in';

const schema = z
  .object({
    enabled: z.boolean(),
    createAdmins: z.boolean(),
    localPasswords: z.boolean(),
    rules: z.array(
      z.object({
        claim: z.enum(['email', 'username', 'group']),
        value: z
          .string()
          .trim()
          .min(1, { error: () => i18n.t('settings:schema.enterValue') })
          .max(256, { error: () => i18n.t('settings:schema.atMost', { max: 256 }) }),
        role: z.enum(['admin', 'viewer']),
      }),
    ),
  })
  .superRefine((v, ctx) => {
    if (!v.localPasswords && (!v.enabled || !v.rules.some((r) => r.role === 'admin'))) {
      ctx.addIssue({
        code: 'custom',
        path: ['localPasswords'],
        message: i18n.t('settings:panel.passwordsOffInvalid'),
      });
    }
  });
type Values = z.infer<typeof schema>;

const toValues = (s: AdminSsoSettings): Values => ({
  enabled: s.enabled,
  createAdmins: s.createAdmins,
  localPasswords: s.localPasswords,
  rules: s.rules ?? [],
});


export function PanelSignIn() {
  const { t } = useTranslation('settings');
  const q = useAdminSso();
  if (q.isPending) return <Card><LoadingRows /></Card>;
  // The server keeps these settings to the admin role: a viewer is told so, calmly.
  if (q.isError && isRoleRefusal(q.error)) return <AdminOnlyNote title={t('panel.title')} />;
  if (q.isError) return <ErrorState error={q.error} title={t('panel.loadFailed')} onRetry={() => q.refetch()} />;
  return <PanelSignInForm settings={q.data} />;
}

function PanelSignInForm({ settings }: { settings: AdminSsoSettings }) {
  const { t } = useTranslation(['settings', 'common']);
  const save = useSaveAdminSso();
  const canWrite = useCanWrite();
  const [confirmOff, setConfirmOff] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { register, control, handleSubmit, setError, setValue, formState, reset } = useForm<Values>({
    resolver: zodResolver(schema),
    values: toValues(settings),
  });
  const rules = useFieldArray({ control, name: 'rules' });
  const enabled = useWatch({ control, name: 'enabled' });
  const errors = formState.errors;

  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const saved = await save.mutateAsync(v);
      reset(toValues(saved));
    } catch (e) {
      const rest = applyServerErrors(e, setError, { known: (p) => /^(enabled|createAdmins|localPasswords|rules(\.\d+\.(claim|value|role))?)$/.test(p) });
      if (rest.length) setFormError(rest.join(' · '));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <ConfirmDialog
        open={confirmOff}
        title={t('panel.offTitle')}
        danger
        confirmLabel={t('panel.offConfirm')}
        message={
          <Trans t={t} i18nKey="panel.offMessage" components={{ code: <code /> }} />
        }
        onConfirm={() => {
          setValue('localPasswords', false, { shouldDirty: true, shouldValidate: true });
          setConfirmOff(false);
        }}
        onCancel={() => setConfirmOff(false)}
      />
      <Card>
        <CardHeader
          title={t('panel.title')}
          description={t('panel.description')}
          actions={
            settings.enabled ? (
              <Badge tone="success" icon="check">
                {t('panel.on')}
              </Badge>
            ) : (
              <Badge icon="power">{t('panel.off')}</Badge>
            )
          }
        />
        <ReadOnlyFieldset readOnly={!canWrite} className="card-body stack">
          {formError ? (
            <Alert tone="danger" title={t('panel.notSaved')}>
              {formError}
            </Alert>
          ) : null}
          {!settings.providerConfigured ? (
            <Alert tone="info" title={t('panel.noProvider')}>
              {t('panel.noProviderText')}
            </Alert>
          ) : null}
          <div>
            <Controller
              control={control}
              name="enabled"
              render={({ field }) => <Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} label={t('panel.enable')} />}
            />
            {errors.enabled?.message ? <FieldErrorText message={errors.enabled.message} /> : null}
          </div>
          {settings.redirectUrl ? (
            <div className="field">
              <span className="field-label">{t('sso.redirect')}</span>
              <div className="link-box">
                <input className="input mono" readOnly value={settings.redirectUrl} aria-label={t('panel.redirectLabel')} onFocus={(e) => e.currentTarget.select()} />
                <CopyButton text={settings.redirectUrl} size="md" />
              </div>
              <span className="field-hint">{t('panel.redirectHint')}</span>
            </div>
          ) : null}
          <p className="muted small">
            {t('panel.twoFactor')}
          </p>

          <div className="stack-sm">
            <div className="row-between">
              <span className="field-label">{t('panel.who')}</span>
              {canWrite ? (
                <Button size="sm" icon="plus" onClick={() => rules.append({ claim: 'group', value: '', role: 'admin' })}>
                  {t('panel.addRule')}
                </Button>
              ) : null}
            </div>
            <span className="field-hint">{t('panel.rulesHint')}</span>
            {rules.fields.length === 0 ? (
              <p className="muted">{t('panel.noRules')}</p>
            ) : (
              <DataTable
                data={rules.fields}
                rowKey={(f) => f.id}
                caption={t('panel.caption')}
                cards={false}
                columns={[
                  {
                    id: 'claim',
                    header: t('panel.claim'),
                    cell: (_, { index: i }) => (
                      <>
                        <select className="select" aria-label={t('panel.ruleClaim', { n: i + 1 })} aria-invalid={errors.rules?.[i]?.claim ? true : undefined} {...register(`rules.${i}.claim`)}>
                          {(['group', 'email', 'username'] as const).map((c) => (
                            <option key={c} value={c}>
                              {t(`panel.claims.${c}`)}
                            </option>
                          ))}
                        </select>
                        {errors.rules?.[i]?.claim?.message ? <FieldErrorText message={errors.rules[i].claim.message} /> : null}
                      </>
                    ),
                  },
                  {
                    id: 'value',
                    header: t('panel.value'),
                    cell: (_, { index: i }) => (
                      <>
                        <input className="input mono" aria-label={t('panel.ruleValue', { n: i + 1 })} aria-invalid={errors.rules?.[i]?.value ? true : undefined} {...register(`rules.${i}.value`)} />
                        {errors.rules?.[i]?.value?.message ? <FieldErrorText message={errors.rules[i].value.message} /> : null}
                      </>
                    ),
                  },
                  {
                    id: 'role',
                    header: t('panel.role'),
                    cell: (_, { index: i }) => (
                      <>
                        <select className="select" aria-label={t('panel.ruleRole', { n: i + 1 })} aria-invalid={errors.rules?.[i]?.role ? true : undefined} {...register(`rules.${i}.role`)}>
                          <option value="admin">{t('panel.roles.admin')}</option>
                          <option value="viewer">{t('panel.roles.viewer')}</option>
                        </select>
                        {errors.rules?.[i]?.role?.message ? <FieldErrorText message={errors.rules[i].role.message} /> : null}
                      </>
                    ),
                  },
                  {
                    id: 'actions',
                    header: t('common:words.actions'),
                    hideHeader: true,
                    className: 'nowrap',
                    cell: (_, { index: i }) =>
                      canWrite ? (
                        <>
                          <Button size="sm" variant="ghost" icon="chevronUp" iconOnly disabled={i === 0} onClick={() => rules.move(i, i - 1)} aria-label={t('panel.moveUp', { n: i + 1 })} />
                          <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => rules.remove(i)} aria-label={t('panel.remove', { n: i + 1 })} />
                        </>
                      ) : null,
                  },
                ]}
              />
            )}
          </div>

          <Controller
            control={control}
            name="createAdmins"
            render={({ field }) => (
              <Switch
                checked={field.value}
                onChange={(e) => field.onChange(e.target.checked)}
                label={t('panel.createAdmins')}
              />
            )}
          />
          <div>
            <Controller
              control={control}
              name="localPasswords"
              render={({ field }) => (
                <Switch
                  checked={field.value}
                  onChange={(e) => (e.target.checked ? field.onChange(true) : setConfirmOff(true))}
                  label={t('panel.allowPasswords')}
                  disabled={!enabled && field.value}
                />
              )}
            />
            {errors.localPasswords?.message ? <FieldErrorText message={errors.localPasswords.message} /> : null}
          </div>
        </ReadOnlyFieldset>
        {canWrite ? (
          <div className="card-footer">
            <Button type="submit" variant="primary" loading={save.isPending} disabled={!formState.isDirty}>
              {t('panel.save')}
            </Button>
          </div>
        ) : null}
      </Card>
    </form>
  );
}
