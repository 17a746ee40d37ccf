import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { Field, FieldErrorText } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import { MethodPicker } from '@/components/ui/method-picker';
import { LoadingRows } from '@/components/ui/states';
import type { MachineTokenCreated } from '@/lib/api-types';
import { useServices } from '@/lib/api/resources';
import { useCreateMachineToken } from '../api/machine-tokens';

const expiryChoices = [
  { value: 'never', label: 'Never' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'at', label: 'At a date' },
] as const;

const schema = z
  .object({
    name: z.string().trim().min(1, 'Give the token a name').max(100, 'At most 100 characters'),
    serviceIds: z.array(z.string()).min(1, 'Pick at least one service'),
    pathPrefix: z.string().trim().refine((v) => v === '' || v.startsWith('/'), 'Paths start with /'),
    methods: z.array(z.string()),
    expiry: z.enum(['never', '30', '90', '365', 'at']),
    expiresAt: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.expiry !== 'at') return;
    const t = new Date(v.expiresAt).getTime();
    if (!v.expiresAt || Number.isNaN(t)) ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: 'Pick a date and time' });
    else if (t <= Date.now()) ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: 'Pick a moment in the future' });
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
      title="New machine token"
      description="For scripts, sync clients and other programs that cannot sign in. They send it as Authorization: Bearer, as a basic-auth password, or in the service's token header."
      submitLabel="Create token"
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
      <Field label="Name" error={errors.name?.message} hint="Shown in the log as token:<name> and sent upstream as Remote-User.">
        <input className="input" placeholder="phone" data-autofocus autoCapitalize="off" {...register('name')} />
      </Field>
      <fieldset className="field plain-fieldset" aria-invalid={errors.serviceIds ? true : undefined} aria-describedby={errors.serviceIds ? 'token-services-err' : undefined}>
        <legend className="field-label">Services</legend>
        {services.isPending ? (
          <LoadingRows rows={2} />
        ) : list.length === 0 ? (
          <p className="field-hint">
            No services yet. <Link to="/services/new">Create one</Link> first.
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
      <Field label="Path prefix" optional error={errors.pathPrefix?.message} hint="Limit the token to paths under this prefix (whole segments). Any path when empty.">
        <input className="input mono" placeholder="/remote.php/dav" autoCapitalize="off" spellCheck={false} {...register('pathPrefix')} />
      </Field>
      <div className="field">
        <span className="field-label">
          Methods <span className="optional">(any when none is picked)</span>
        </span>
        <Controller control={control} name="methods" render={({ field }) => <MethodPicker value={field.value} onChange={field.onChange} label="Token methods" invalid={!!errors.methods} />} />
        {errors.methods?.message ? <FieldErrorText message={errors.methods.message} /> : null}
      </div>
      <div className="row" style={{ alignItems: 'flex-start' }}>
        <Field label="Expires" error={errors.expiry?.message}>
          <select className="select" style={{ width: 160 }} {...register('expiry')}>
            {expiryChoices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </Field>
        {expiry === 'at' ? (
          <Field label="Expires at" error={errors.expiresAt?.message} hint="Your local time.">
            <input type="datetime-local" className="input" style={{ maxWidth: 260 }} {...register('expiresAt')} />
          </Field>
        ) : null}
      </div>
    </FormModal>
  );
}
