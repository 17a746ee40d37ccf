import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Field, FieldErrorText } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import { SignInAgeOptions } from '@/components/ui/sign-in-age-options';
import { Switch } from '@/components/ui/switch';
import type { OidcClient, OidcClientInput, OidcClientWithSecret, OidcGrantType, OidcPreset, OidcScope } from '@/lib/api-types';
import i18n from '@/lib/i18n';
import { useServices } from '@/lib/api/resources';
import { useCreateOidcClient, useGroupChoices, useOidcPresets, useUpdateOidcClient } from '../api/clients';
import { fromPreset, hostPlaceholder, lines } from './preset-fill';

export const scopeChoices: OidcScope[] = ['openid', 'profile', 'email', 'groups', 'offline_access'];
export const grantChoices: OidcGrantType[] = ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'];
const algs = ['RS256', 'ES256'] as const;

type SchemaKey = 'name' | 'max100' | 'openid' | 'grant' | 'mappings' | 'minutes' | 'hours' | 'maxAge';
const tr = (key: SchemaKey) => i18n.t(`oidc-clients:schema.${key}`);
const msg = (key: SchemaKey) => ({ error: () => tr(key) });

const schema = z
  .object({
    preset: z.string(),
    serviceId: z.string(),
    name: z.string().trim().min(1, msg('name')).max(100, msg('max100')),
    logoUrl: z.string().trim(),
    public: z.boolean(),
    redirectUris: z.string(),
    postLogoutRedirectUris: z.string(),
    backchannelLogoutUri: z.string().trim(),
    allowedGroupIds: z.array(z.string()),
    scopes: z.array(z.string()).refine((s) => s.includes('openid'), msg('openid')),
    grantTypes: z.array(z.string()).refine((g) => g.includes('authorization_code') || g.some((x) => x.endsWith('device_code')), msg('grant')),
    signingAlg: z.enum(algs),
    claimMappings: z.string(),
    impliedConsent: z.boolean(),
    disabled: z.boolean(),
    accessMinutes: z.coerce.number<number>().int(msg('minutes')).min(1, msg('minutes')).max(1440, msg('minutes')),
    idMinutes: z.coerce.number<number>().int(msg('minutes')).min(1, msg('minutes')).max(1440, msg('minutes')),
    refreshHours: z.coerce.number<number>().int(msg('hours')).min(1, msg('hours')).max(8760, msg('hours')),
    secondFactor: z.boolean(),
    // Same bounds as the people protection's maximum sign-in age.
    maxAgeSeconds: z.coerce.number<number>().int(msg('maxAge')).min(0, msg('maxAge')).max(31536000, msg('maxAge')),
  })
  .superRefine((v, ctx) => {
    if (v.claimMappings.trim() === '') return;
    try {
      if (!Array.isArray(JSON.parse(v.claimMappings))) throw new Error('not a list');
    } catch {
      ctx.addIssue({ code: 'custom', path: ['claimMappings'], message: tr('mappings') });
    }
  });
export type Values = z.infer<typeof schema>;

export const blank: Values = {
  preset: '',
  serviceId: '',
  name: '',
  logoUrl: '',
  public: false,
  redirectUris: '',
  postLogoutRedirectUris: '',
  backchannelLogoutUri: '',
  allowedGroupIds: [],
  scopes: ['openid', 'profile', 'email'],
  grantTypes: ['authorization_code'],
  signingAlg: 'RS256',
  claimMappings: '',
  impliedConsent: false,
  disabled: false,
  accessMinutes: 60,
  idMinutes: 60,
  refreshHours: 720,
  secondFactor: false,
  maxAgeSeconds: 0,
};

/** The form's values for an existing client. */
export function valuesOf(c: OidcClient): Values {
  return {
    preset: c.preset,
    serviceId: c.service?.id ?? '',
    name: c.name,
    logoUrl: c.logoUrl,
    public: c.public,
    redirectUris: c.redirectUris.join('\n'),
    postLogoutRedirectUris: c.postLogoutRedirectUris.join('\n'),
    backchannelLogoutUri: c.backchannelLogoutUri,
    allowedGroupIds: c.allowedGroups.map((g) => g.id),
    scopes: c.scopes,
    grantTypes: c.grantTypes,
    signingAlg: c.signingAlg,
    claimMappings: c.claimMappings.length ? JSON.stringify(c.claimMappings, null, 2) : '',
    impliedConsent: c.impliedConsent,
    disabled: c.disabled,
    accessMinutes: Math.round(c.accessTokenTtlSeconds / 60),
    idMinutes: Math.round(c.idTokenTtlSeconds / 60),
    refreshHours: Math.round(c.refreshTokenTtlSeconds / 3600),
    secondFactor: c.secondFactor,
    maxAgeSeconds: c.maxAgeSeconds,
  };
}

/** The API body for the form's values. */
export function inputOf(v: Values): OidcClientInput {
  return {
    name: v.name,
    logoUrl: v.logoUrl,
    preset: v.preset,
    public: v.public,
    redirectUris: lines(v.redirectUris),
    postLogoutRedirectUris: lines(v.postLogoutRedirectUris),
    backchannelLogoutUri: v.backchannelLogoutUri,
    allowedGroupIds: v.allowedGroupIds,
    scopes: v.scopes as OidcScope[],
    grantTypes: v.grantTypes as OidcGrantType[],
    signingAlg: v.signingAlg,
    claimMappings: v.claimMappings.trim() ? JSON.parse(v.claimMappings) : [],
    impliedConsent: v.impliedConsent,
    disabled: v.disabled,
    accessTokenTtlSeconds: v.accessMinutes * 60,
    idTokenTtlSeconds: v.idMinutes * 60,
    refreshTokenTtlSeconds: v.refreshHours * 3600,
    serviceId: v.serviceId,
    secondFactor: v.secondFactor,
    maxAgeSeconds: v.maxAgeSeconds,
  };
}

/** Where a server field error goes in the form. */
function serverField(p: string): string {
  const head = p.replace(/\[.*$/, '').replace(/\..*$/, '');
  switch (head) {
    case 'accessTokenTtlSeconds':
      return 'accessMinutes';
    case 'idTokenTtlSeconds':
      return 'idMinutes';
    case 'refreshTokenTtlSeconds':
      return 'refreshHours';
    default:
      return head;
  }
}

type Props = {
  open: boolean;
  /** The client to edit; none creates one. */
  client?: OidcClient | null;
  onClose: () => void;
  onCreated: (c: OidcClientWithSecret) => void;
};

export function ClientDialog({ open, client, onClose, onCreated }: Props) {
  const { t } = useTranslation(['oidc-clients', 'common']);
  const services = useServices();
  const presets = useOidcPresets();
  const groups = useGroupChoices();
  const create = useCreateOidcClient();
  const update = useUpdateOidcClient();
  const start = client ? valuesOf(client) : blank;
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: start });
  const { register, control, formState, getValues, setValue } = form;
  const errors = formState.errors;
  const presetId = useWatch({ control, name: 'preset' });
  const serviceId = useWatch({ control, name: 'serviceId' });
  const maxAge = useWatch({ control, name: 'maxAgeSeconds' });
  const secondFactorHintId = useId();
  const presetList = presets.data ?? [];
  const serviceList = services.data ?? [];
  const preset: OidcPreset | undefined = presetList.find((p) => p.id === presetId);
  const host = serviceList.find((s) => s.id === serviceId)?.fqdns?.[0] ?? '';

  // Picking an app or a service fills the client from the preset, the host from the service.
  const fill = () => {
    if (client) return;
    const v = getValues();
    const p = presetList.find((x) => x.id === v.preset);
    const svc = serviceList.find((s) => s.id === v.serviceId);
    if (!p) return;
    const filled = fromPreset(p, svc?.fqdns?.[0] ?? '');
    for (const [k, value] of Object.entries(filled) as [keyof Values, Values[keyof Values]][]) {
      if (k === 'name' && v.name.trim() !== '') continue;
      setValue(k, value, { shouldDirty: true });
    }
  };

  return (
    <FormModal
      open={open}
      onClose={onClose}
      form={form}
      id="oidc-client-form"
      size="lg"
      title={client ? t('dialog.editTitle', { name: client.name }) : t('dialog.newTitle')}
      description={t('dialog.description')}
      submitLabel={client ? t('common:actions.save') : t('dialog.create')}
      resetValues={start}
      serverErrors={{ map: serverField }}
      onSubmit={async (v) => {
        if (client) {
          await update.mutateAsync({ id: client.id, body: inputOf(v) });
          onClose();
          return;
        }
        onCreated(await create.mutateAsync(inputOf(v)));
      }}
    >
      <div className="row" style={{ alignItems: 'flex-start' }}>
        {client ? null : (
          <Field label={t('dialog.preset')} hint={t('dialog.presetHint')}>
            <select className="select" {...register('preset', { onChange: fill })}>
              <option value="">{t('dialog.noPreset')}</option>
              {presetList.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field label={t('dialog.service')} optional hint={t('dialog.serviceHint')} error={errors.serviceId?.message}>
          <select className="select" {...register('serviceId', { onChange: fill })}>
            <option value="">{t('dialog.noService')}</option>
            {serviceList.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {preset && !client ? (
        <Alert tone="info" title={preset.name}>
          <p>{preset.description}</p>
          <p className="small">{preset.note.replaceAll(hostPlaceholder, host || hostPlaceholder)}</p>
          <ul className="plain-list small">
            {preset.docs.map((d) => (
              <li key={d}>
                <a href={d} target="_blank" rel="noreferrer">
                  {d}
                </a>
              </li>
            ))}
          </ul>
          {host ? null : <p className="small">{t('dialog.pickService')}</p>}
        </Alert>
      ) : null}
      <Field label={t('dialog.name')} error={errors.name?.message}>
        <input className="input" data-autofocus autoCapitalize="off" {...register('name')} />
      </Field>
      <Controller
        control={control}
        name="public"
        render={({ field }) => (
          <Switch label={t('dialog.public')} checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />
        )}
      />
      <p className="field-hint">{t('dialog.publicHint')}</p>
      <Field label={t('dialog.redirectUris')} hint={t('dialog.redirectUrisHint')} error={errors.redirectUris?.message}>
        <textarea className="input mono" rows={3} spellCheck={false} {...register(`redirectUris`)} />
      </Field>
      <Field label={t('dialog.postLogout')} optional hint={t('dialog.linesHint')} error={errors.postLogoutRedirectUris?.message}>
        <textarea className="input mono" rows={2} spellCheck={false} {...register(`postLogoutRedirectUris`)} />
      </Field>
      <Field label={t('dialog.backchannel')} optional error={errors.backchannelLogoutUri?.message}>
        <input className="input mono" spellCheck={false} autoCapitalize="off" {...register('backchannelLogoutUri')} />
      </Field>
      <fieldset className="field plain-fieldset">
        <legend className="field-label">{t('dialog.allowedGroups')}</legend>
        <p className="field-hint">{t('dialog.allowedGroupsHint')}</p>
        <Controller
          control={control}
          name="allowedGroupIds"
          render={({ field }) => (
            <div className="check-grid">
              {(groups.data ?? []).map((g) => (
                <label key={g.id} className="checkbox">
                  <input
                    type="checkbox"
                    checked={field.value.includes(g.id)}
                    onChange={(e) => field.onChange(e.target.checked ? [...field.value, g.id] : field.value.filter((x) => x !== g.id))}
                  />
                  <span>{g.name}</span>
                </label>
              ))}
            </div>
          )}
        />
        {errors.allowedGroupIds?.message ? <FieldErrorText message={errors.allowedGroupIds.message} /> : null}
      </fieldset>
      <Controller
        control={control}
        name="secondFactor"
        render={({ field }) => (
          <Switch
            label={t('dialog.secondFactor')}
            checked={field.value}
            onChange={(e) => field.onChange(e.target.checked)}
            aria-describedby={secondFactorHintId}
          />
        )}
      />
      <p className="field-hint" id={secondFactorHintId}>
        {t('dialog.secondFactorHint')}
      </p>
      <Field label={t('dialog.maxAge')} hint={t('dialog.maxAgeHint')} error={errors.maxAgeSeconds?.message}>
        <select className="select" {...register('maxAgeSeconds', { valueAsNumber: true })}>
          <SignInAgeOptions current={maxAge} />
        </select>
      </Field>
      <CheckList name="scopes" legend={t('dialog.scopes')} choices={scopeChoices} control={control} error={errors.scopes?.message} />
      <CheckList
        name="grantTypes"
        legend={t('dialog.grantTypes')}
        choices={grantChoices}
        control={control}
        error={errors.grantTypes?.message}
        labelOf={(g) => t(`grants.${g === 'authorization_code' ? 'code' : g === 'refresh_token' ? 'refresh' : 'device'}`)}
      />
      <details className="stack-sm">
        <summary>{t('dialog.advanced')}</summary>
        <Field label={t('dialog.logoUrl')} optional hint={t('dialog.logoUrlHint')} error={errors.logoUrl?.message}>
          <input className="input mono" spellCheck={false} autoCapitalize="off" {...register('logoUrl')} />
        </Field>
        <Field label={t('dialog.signingAlg')} error={errors.signingAlg?.message}>
          <select className="select" {...register('signingAlg')}>
            {algs.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </Field>
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <Field label={t('dialog.accessMinutes')} error={errors.accessMinutes?.message}>
            <input className="input" type="number" min={1} max={1440} {...register('accessMinutes')} />
          </Field>
          <Field label={t('dialog.idMinutes')} error={errors.idMinutes?.message}>
            <input className="input" type="number" min={1} max={1440} {...register('idMinutes')} />
          </Field>
          <Field label={t('dialog.refreshHours')} error={errors.refreshHours?.message}>
            <input className="input" type="number" min={1} max={8760} {...register('refreshHours')} />
          </Field>
        </div>
        <Field label={t('dialog.claimMappings')} optional hint={t('dialog.claimMappingsHint')} error={errors.claimMappings?.message}>
          <textarea className="input mono" rows={6} spellCheck={false} {...register(`claimMappings`)} />
        </Field>
        <Controller
          control={control}
          name="impliedConsent"
          render={({ field }) => (
            <Switch label={t('dialog.impliedConsent')} checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />
          )}
        />
        <Controller
          control={control}
          name="disabled"
          render={({ field }) => <Switch label={t('dialog.disabled')} checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
        />
      </details>
    </FormModal>
  );
}

type CheckListProps<N extends 'scopes' | 'grantTypes'> = {
  name: N;
  legend: string;
  choices: string[];
  control: ReturnType<typeof useForm<Values>>['control'];
  error?: string;
  labelOf?: (v: string) => string;
};

function CheckList<N extends 'scopes' | 'grantTypes'>({ name, legend, choices, control, error, labelOf }: CheckListProps<N>) {
  return (
    <fieldset className="field plain-fieldset" aria-invalid={error ? true : undefined}>
      <legend className="field-label">{legend}</legend>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <div className="check-grid">
            {choices.map((c) => (
              <label key={c} className="checkbox">
                <input
                  type="checkbox"
                  checked={field.value.includes(c)}
                  onChange={(e) => field.onChange(e.target.checked ? [...field.value, c] : field.value.filter((x) => x !== c))}
                />
                <span className="mono small">{labelOf ? labelOf(c) : c}</span>
              </label>
            ))}
          </div>
        )}
      />
      {error ? <FieldErrorText message={error} /> : null}
    </fieldset>
  );
}
