import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Field } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import type { Group, PanelRole, Person } from '@/lib/api-types';
import { newPasswordHint, newPasswordSchema } from '@/lib/password-schema';
import { useCreatePerson, useSetPersonPassword, useUpdatePerson } from '../api/people';

export const panelRoleChoices: { value: PanelRole; label: string; hint: string }[] = [
  { value: 'admin', label: 'Admin', hint: 'runs the panel: changes everything' },
  { value: 'viewer', label: 'Viewer', hint: 'reads the panel, changes nothing' },
  { value: 'none', label: 'No panel access', hint: 'a person of the directory only' },
];

export function panelRoleLabel(role: PanelRole): string {
  return panelRoleChoices.find((r) => r.value === role)?.label ?? role;
}

/** Who a person is, as the server checks it (internal/people/validate.go): the person and invitation forms share it. */
export const personFields = {
  username: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._@-]{1,64}$/, '1-64 letters, digits or . _ @ -'),
  displayName: z.string().trim().max(100, 'At most 100 characters'),
  email: z
    .string()
    .trim()
    .max(254, 'At most 254 characters')
    .refine((v) => v === '' || /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(v), 'An e-mail address such as name@example.com'),
  panelRole: z.enum(['admin', 'viewer', 'none']),
  groups: z.array(z.string()),
};

const personSchema = z
  .object({
    ...personFields,
    password: z.union([z.literal(''), newPasswordSchema]),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'Passwords do not match' });
type PersonValues = z.infer<typeof personSchema>;
const emptyPerson: PersonValues = { username: '', displayName: '', email: '', panelRole: 'none', groups: [], password: '', confirm: '' };

function valuesOf(p: Person | null): PersonValues {
  if (!p) return emptyPerson;
  return { username: p.username, displayName: p.displayName, email: p.email, panelRole: p.panelRole, groups: p.groups.map((g) => g.id), password: '', confirm: '' };
}

const known = (p: string) => ['username', 'displayName', 'email', 'panelRole', 'password'].includes(p) || p.startsWith('groups');

/** Adds a person (target null) or edits one. */
export function PersonDialog({ open, target, groups, onClose }: { open: boolean; target: Person | null; groups: Group[]; onClose: () => void }) {
  const create = useCreatePerson();
  const update = useUpdatePerson();
  const form = useForm<PersonValues>({ resolver: zodResolver(personSchema), defaultValues: valuesOf(target) });
  const { register, formState, reset } = form;
  const errors = formState.errors;
  useEffect(() => {
    if (open) reset(valuesOf(target));
  }, [open, target, reset]);
  const editing = !!target;
  return (
    <FormModal
      open={open}
      onClose={onClose}
      form={form}
      id="person-form"
      resetValues={valuesOf(target)}
      title={editing ? `Edit ${target.username}` : 'Add person'}
      description={
        editing
          ? 'Taking away the panel role or disabling them signs them out everywhere.'
          : 'A person with a panel role signs in to this panel; share their password with them safely.'
      }
      submitLabel={editing ? 'Save' : 'Add person'}
      errorTitle={editing ? 'Not saved' : 'Not added'}
      showRequestErrors
      serverErrors={{ known }}
      onSubmit={async ({ confirm: _confirm, password, ...v }) => {
        if (editing) await update.mutateAsync({ id: target.id, ...v });
        else await create.mutateAsync({ ...v, enabled: true, password: password || undefined });
        onClose();
      }}
    >
      <div className="grid-2">
        <Field label="Username" error={errors.username?.message}>
          <input className="input" data-autofocus autoCapitalize="off" autoComplete="off" spellCheck={false} {...register('username')} />
        </Field>
        <Field label="Display name" optional error={errors.displayName?.message}>
          <input className="input" autoComplete="off" {...register('displayName')} />
        </Field>
      </div>
      <Field label="E-mail" optional error={errors.email?.message} hint="Unique: one address names one person.">
        <input className="input" type="email" autoComplete="off" spellCheck={false} {...register('email')} />
      </Field>
      <Field label="Panel role" error={errors.panelRole?.message} hint="Who may use this panel. Admins change everything; viewers read everything but secrets.">
        <select className="select" {...register('panelRole')}>
          {panelRoleChoices.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label} ({r.hint})
            </option>
          ))}
        </select>
      </Field>
      {groups.length ? (
        <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="label">Groups</legend>
          <div className="row" style={{ flexWrap: 'wrap', gap: 12 }}>
            {groups.map((g) => (
              <label key={g.id} className="row" style={{ gap: 6 }}>
                <input type="checkbox" value={g.id} {...register('groups')} /> {g.name}
              </label>
            ))}
          </div>
          {errors.groups ? <span className="field-error">{errors.groups.message ?? 'Check the groups'}</span> : null}
        </fieldset>
      ) : null}
      {editing ? null : (
        <div className="grid-2">
          <Field label="Password" optional error={errors.password?.message} hint={`${newPasswordHint} Without one they sign in with single sign-on.`}>
            <input className="input" type="password" autoComplete="new-password" {...register('password')} />
          </Field>
          <Field label="Confirm password" optional error={errors.confirm?.message}>
            <input className="input" type="password" autoComplete="new-password" {...register('confirm')} />
          </Field>
        </div>
      )}
    </FormModal>
  );
}

const resetSchema = z
  .object({ password: newPasswordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'Passwords do not match' });
type ResetValues = z.infer<typeof resetSchema>;

/** Sets another person's password; the server signs them out everywhere. */
export function SetPasswordDialog({ target, onClose }: { target: Person | null; onClose: () => void }) {
  const set = useSetPersonPassword();
  const form = useForm<ResetValues>({ resolver: zodResolver(resetSchema), defaultValues: { password: '', confirm: '' } });
  const { register, formState } = form;
  return (
    <FormModal
      open={!!target}
      onClose={onClose}
      form={form}
      id="person-password-form"
      title={`Set a new password for ${target?.username ?? ''}`}
      description="Every session of theirs is signed out."
      submitLabel="Set password"
      errorTitle="Password not set"
      showRequestErrors
      serverErrors={{ known: (p) => p === 'password' }}
      onSubmit={async ({ password }) => {
        if (!target) return;
        await set.mutateAsync({ id: target.id, password });
        onClose();
      }}
    >
      <div className="grid-2">
        <Field label="New password" error={formState.errors.password?.message} hint={newPasswordHint}>
          <input className="input" type="password" autoComplete="new-password" data-autofocus {...register('password')} />
        </Field>
        <Field label="Confirm new password" error={formState.errors.confirm?.message}>
          <input className="input" type="password" autoComplete="new-password" {...register('confirm')} />
        </Field>
      </div>
    </FormModal>
  );
}
