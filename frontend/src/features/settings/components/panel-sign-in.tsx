import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
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
        value: z.string().trim().min(1, 'Enter a value').max(256, 'At most 256 characters'),
        role: z.enum(['admin', 'viewer']),
      }),
    ),
  })
  .superRefine((v, ctx) => {
    if (!v.localPasswords && (!v.enabled || !v.rules.some((r) => r.role === 'admin'))) {
      ctx.addIssue({
        code: 'custom',
        path: ['localPasswords'],
        message: 'Passwords can only be turned off while SSO sign-in is on with a rule giving the admin role',
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

const claimLabels = { email: 'Email (verified)', username: 'Username', group: 'Group' } as const;

export function PanelSignIn() {
  const q = useAdminSso();
  if (q.isPending) return <Card><LoadingRows /></Card>;
  // The server keeps these settings to the admin role: a viewer is told so, calmly.
  if (q.isError && isRoleRefusal(q.error)) return <AdminOnlyNote title="Panel sign-in" />;
  if (q.isError) return <ErrorState error={q.error} title="Could not load the panel's sign-in settings" onRetry={() => q.refetch()} />;
  return <PanelSignInForm settings={q.data} />;
}

function PanelSignInForm({ settings }: { settings: AdminSsoSettings }) {
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
        title="Turn off password sign-in?"
        danger
        confirmLabel="Turn off passwords"
        message={
          <>
            Administrators will only be able to sign in with SSO. If the identity provider fails, turn passwords back on from the
            server with <code>gatehouse admin local-passwords on</code>.
          </>
        }
        onConfirm={() => {
          setValue('localPasswords', false, { shouldDirty: true, shouldValidate: true });
          setConfirmOff(false);
        }}
        onCancel={() => setConfirmOff(false)}
      />
      <Card>
        <CardHeader
          title="Panel sign-in"
          description="Let administrators sign in to this panel with the identity provider configured below for services."
          actions={settings.enabled ? <Badge tone="success" icon="check">SSO on</Badge> : <Badge icon="power">SSO off</Badge>}
        />
        <ReadOnlyFieldset readOnly={!canWrite} className="card-body stack">
          {formError ? <Alert tone="danger" title="Not saved">{formError}</Alert> : null}
          {!settings.providerConfigured ? (
            <Alert tone="info" title="No identity provider yet">
              Set up and switch on single sign-on below first; the panel uses the same provider.
            </Alert>
          ) : null}
          <div>
            <Controller
              control={control}
              name="enabled"
              render={({ field }) => <Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} label="Sign in to the panel with SSO" />}
            />
            {errors.enabled?.message ? <FieldErrorText message={errors.enabled.message} /> : null}
          </div>
          {settings.redirectUrl ? (
            <div className="field">
              <span className="field-label">Redirect URL</span>
              <div className="link-box">
                <input className="input mono" readOnly value={settings.redirectUrl} aria-label="Panel sign-in redirect URL to register at the identity provider" onFocus={(e) => e.currentTarget.select()} />
                <CopyButton text={settings.redirectUrl} size="md" />
              </div>
              <span className="field-hint">Register this as a second allowed redirect URL of the same client at your identity provider.</span>
            </div>
          ) : null}
          <p className="muted small">
            The identity provider handles two-factor authentication for SSO sign-ins: the panel does not ask for its own second factor.
          </p>

          <div className="stack-sm">
            <div className="row-between">
              <span className="field-label">Who may sign in</span>
              {canWrite ? (
                <Button size="sm" icon="plus" onClick={() => rules.append({ claim: 'group', value: '', role: 'admin' })}>
                  Add rule
                </Button>
              ) : null}
            </div>
            <span className="field-hint">Rules are tried from the top; the first that matches gives the role. Nobody matching, nobody signs in.</span>
            {rules.fields.length === 0 ? (
              <p className="muted">No rules: nobody can sign in with SSO.</p>
            ) : (
              <DataTable
                data={rules.fields}
                rowKey={(f) => f.id}
                caption="Sign-in rules, first match wins"
                cards={false}
                columns={[
                  {
                    id: 'claim',
                    header: 'Claim',
                    cell: (_, { index: i }) => (
                      <>
                        <select className="select" aria-label={`Rule ${i + 1} claim`} aria-invalid={errors.rules?.[i]?.claim ? true : undefined} {...register(`rules.${i}.claim`)}>
                          {(['group', 'email', 'username'] as const).map((c) => (
                            <option key={c} value={c}>{claimLabels[c]}</option>
                          ))}
                        </select>
                        {errors.rules?.[i]?.claim?.message ? <FieldErrorText message={errors.rules[i].claim.message} /> : null}
                      </>
                    ),
                  },
                  {
                    id: 'value',
                    header: 'Value',
                    cell: (_, { index: i }) => (
                      <>
                        <input className="input mono" aria-label={`Rule ${i + 1} value`} aria-invalid={errors.rules?.[i]?.value ? true : undefined} {...register(`rules.${i}.value`)} />
                        {errors.rules?.[i]?.value?.message ? <FieldErrorText message={errors.rules[i].value.message} /> : null}
                      </>
                    ),
                  },
                  {
                    id: 'role',
                    header: 'Role',
                    cell: (_, { index: i }) => (
                      <>
                        <select className="select" aria-label={`Rule ${i + 1} role`} aria-invalid={errors.rules?.[i]?.role ? true : undefined} {...register(`rules.${i}.role`)}>
                          <option value="admin">Admin</option>
                          <option value="viewer">Viewer</option>
                        </select>
                        {errors.rules?.[i]?.role?.message ? <FieldErrorText message={errors.rules[i].role.message} /> : null}
                      </>
                    ),
                  },
                  {
                    id: 'actions',
                    header: 'Actions',
                    hideHeader: true,
                    className: 'nowrap',
                    cell: (_, { index: i }) =>
                      canWrite ? (
                        <>
                          <Button size="sm" variant="ghost" icon="chevronUp" iconOnly disabled={i === 0} onClick={() => rules.move(i, i - 1)} aria-label={`Move rule ${i + 1} up`} />
                          <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => rules.remove(i)} aria-label={`Remove rule ${i + 1}`} />
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
                label="Create administrators on first sign-in (otherwise only existing administrators whose username or email matches)"
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
                  label="Allow signing in with a password"
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
              Save panel sign-in
            </Button>
          </div>
        ) : null}
      </Card>
    </form>
  );
}
