import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { Field, FieldErrorText } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import { MethodPicker } from '@/components/ui/method-picker';
import { LoadingRows } from '@/components/ui/states';
import type { MachineTokenCreated } from '@/lib/api-types';
import i18n from '@/lib/i18n';
import { useServices } from '@/lib/api/resources';
import { useCreateMachineToken } from '../api/machine-tokens';

const expiryChoices = ['never', '30', '90', '365', 'at'] as const;

type TokenKey = 'name' | 'max100' | 'services' | 'pathSlash' | 'pickDateTime' | 'future';
const tr = (key: TokenKey) => i18n.t(`forward-auth:createToken.schema.${key}`);
const msg = (key: TokenKey) => ({ error: () => tr(key) });

const schema = z
  .object({
    name: z.string().trim().min(1, msg('name')).max(100, msg('max100')),
    serviceIds: z.array(z.string()).min(1, msg('services')),
    pathPrefix: z.string().trim().refine((v) => v === '' || v.startsWith('/'), msg('pathSlash')),
    methods: z.array(z.string()),
    expiry: z.enum(['never', '30', '90', '365', 'at']),
    expiresAt: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.expiry !== 'at') return;
    const t = new Date(v.expiresAt).getTime();
    if (!v.expiresAt || Number.isNaN(t)) ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: tr('pickDateTime') });
    else if (t <= Date.now()) ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: tr('future') });
  });
type Values = z.infer<typeof schema>;

const defaults: Values = { name: '', serviceIds: [], pathPrefix: '', methods: [], expiry: 'never', expiresAt: '' };

function expiresAt(v: Values): string | null {
  if (v.expiry === 'never') return null;
  if (v.expiry === 'at') return new Date(v.expiresAt).toISOString();
  return new Date(Date.now() + Number(v.expiry) * 86400_000).toISOString();
}

type Props = {
  open: boolean;
  /** Services ticked when the dialog opens (from a service's Security tab). */
  serviceIds?: string[];
  onClose: () => void;
  onCreated: (c: MachineTokenCreated) => void;
};

export function CreateTokenDialog({ open, serviceIds, onClose, onCreated }: Props) {
  const { t } = useTranslation('forward-auth');
  const services = useServices();
  const create = useCreateMachineToken();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { ...defaults, serviceIds: serviceIds ?? [] },
  });
  const { register, control, formState, getValues } = form;
  const expiry = useWatch({ control, name: 'expiry' });
  const errors = formState.errors;
  const list = services.data ?? [];
  return (
    <FormModal
      open={open}
      onClose={onClose}
      form={form}
      id="token-form"
      size="lg"
      title={t('createToken.title')}
      description={t('createToken.description')}
      submitLabel={t('createToken.submit')}
      resetValues={defaults}
      serverErrors={{
        map: (p) => {
          if (p.startsWith('serviceIds')) return 'serviceIds';
          if (p.startsWith('scope.methods')) return 'methods';
          if (p === 'scope.pathPrefix') return 'pathPrefix';
          if (p === 'expiresAt') return getValues('expiry') === 'at' ? 'expiresAt' : 'expiry';
          return p;
        },
      }}
      onSubmit={async (v) => {
        const created = await create.mutateAsync({
          name: v.name,
          serviceIds: v.serviceIds,
          scope: { pathPrefix: v.pathPrefix, methods: v.methods },
          expiresAt: expiresAt(v),
        });
        onCreated(created);
      }}
    >
      <Field label={t('createToken.name')} error={errors.name?.message} hint={t('createToken.nameHint')}>
        <input className="input" placeholder={t('createToken.namePlaceholder')} data-autofocus autoCapitalize="off" {...register('name')} />
      </Field>
      <fieldset className="field plain-fieldset" aria-invalid={errors.serviceIds ? true : undefined} aria-describedby={errors.serviceIds ? 'token-services-err' : undefined}>
        <legend className="field-label">{t('createToken.services')}</legend>
        {services.isPending ? (
          <LoadingRows rows={2} />
        ) : list.length === 0 ? (
          <p className="field-hint">
            <Trans t={t} i18nKey="createToken.noServices" components={{ a: <Link to="/services/new" /> }} />
          </p>
        ) : (
          <Controller
            control={control}
            name="serviceIds"
            render={({ field }) => (
              <div className="check-grid">
                {list.map((s) => (
                  <label key={s.id} className="checkbox">
                    <input
                      type="checkbox"
                      checked={field.value.includes(s.id)}
                      onChange={(e) => field.onChange(e.target.checked ? [...field.value, s.id] : field.value.filter((x) => x !== s.id))}
                    />
                    <span className="checkbox-text">
                      <span>{s.name}</span>
                      {s.fqdns?.[0] ? <span className="small muted mono">{s.fqdns[0]}</span> : null}
                    </span>
                  </label>
                ))}
              </div>
            )}
          />
        )}
        {errors.serviceIds?.message ? <FieldErrorText id="token-services-err" message={errors.serviceIds.message} /> : null}
      </fieldset>
      <Field label={t('createToken.pathPrefix')} optional error={errors.pathPrefix?.message} hint={t('createToken.pathPrefixHint')}>
        <input className="input mono" placeholder={t('createToken.pathPrefixPlaceholder')} autoCapitalize="off" spellCheck={false} {...register('pathPrefix')} />
      </Field>
      <div className="field">
        <span className="field-label">
          {t('createToken.methods')} <span className="optional">{t('createToken.methodsAny')}</span>
        </span>
        <Controller control={control} name="methods" render={({ field }) => <MethodPicker value={field.value} onChange={field.onChange} label={t('createToken.methodsLabel')} invalid={!!errors.methods} />} />
        {errors.methods?.message ? <FieldErrorText message={errors.methods.message} /> : null}
      </div>
      <div className="row" style={{ alignItems: 'flex-start' }}>
        <Field label={t('createToken.expires')} error={errors.expiry?.message}>
          <select className="select" style={{ width: 160 }} {...register('expiry')}>
            {expiryChoices.map((c) => (
              <option key={c} value={c}>
                {c === 'never' ? t('createToken.never') : c === 'at' ? t('createToken.atDate') : c === '365' ? t('createToken.oneYear') : t('createToken.days', { count: Number(c) })}
              </option>
            ))}
          </select>
        </Field>
        {expiry === 'at' ? (
          <Field label={t('createToken.expiresAt')} error={errors.expiresAt?.message} hint={t('createToken.localTime')}>
            <input type="datetime-local" className="input" style={{ maxWidth: 260 }} {...register('expiresAt')} />
          </Field>
        ) : null}
      </div>
    </FormModal>
  );
}
