import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import { Field } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import type { Group, PanelRole, Person } from '@/lib/api-types';
import { newPasswordSchema } from '@/lib/password-schema';
import { useCreatePerson, useSetPersonPassword, useUpdatePerson } from '../api/people';

export const panelRoleChoices: PanelRole[] = ['admin', 'viewer', 'none'];

export function panelRoleLabel(role: PanelRole): string {
  return panelRoleChoices.includes(role) ? i18n.t(`people:roles.${role}.label`) : role;
}

function panelRoleHint(role: PanelRole): string {
  return i18n.t(`people:roles.${role}.hint`);
}

/** Who a person is, as the server checks it (internal/people/validate.go): the person and invitation forms share it. */
export const personFields = {
  username: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._@-]{1,64}$/, { error: () => i18n.t('people:schema.username') }),
  displayName: z.string().trim().max(100, { error: () => i18n.t('people:schema.atMost', { max: 100 }) }),
  email: z
    .string()
    .trim()
    .max(254, { error: () => i18n.t('people:schema.atMost', { max: 254 }) })
    .refine((v) => v === '' || /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(v), { error: () => i18n.t('people:schema.email') }),
  panelRole: z.enum(['admin', 'viewer', 'none']),
  groups: z.array(z.string()),
};

const personSchema = z
  .object({
    ...personFields,
    password: z.union([z.literal(''), newPasswordSchema]),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], error: () => i18n.t('people:schema.mismatch') });
type PersonValues = z.infer<typeof personSchema>;
const emptyPerson: PersonValues = { username: '', displayName: '', email: '', panelRole: 'none', groups: [], password: '', confirm: '' };

function valuesOf(p: Person | null): PersonValues {
  if (!p) return emptyPerson;
  return { username: p.username, displayName: p.displayName, email: p.email, panelRole: p.panelRole, groups: p.groups.map((g) => g.id), password: '', confirm: '' };
}

const known = (p: string) => ['username', 'displayName', 'email', 'panelRole', 'password'].includes(p) || p.startsWith('groups');

/** Adds a person (target null) or edits one. */
export function PersonDialog({ open, target, groups, onClose }: { open: boolean; target: Person | null; groups: Group[]; onClose: () => void }) {
  const { t } = useTranslation(['people', 'common']);
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
      title={editing ? t('form.editTitle', { name: target.username }) : t('page.add')}
      description={
        editing
          ? t('form.editDescription')
          : t('form.addDescription')
      }
      submitLabel={editing ? t('common:actions.save') : t('page.add')}
      errorTitle={editing ? t('form.notSaved') : t('form.notAdded')}
      showRequestErrors
      serverErrors={{ known }}
      onSubmit={async ({ confirm: _confirm, password, ...v }) => {
        if (editing) await update.mutateAsync({ id: target.id, ...v });
        else await create.mutateAsync({ ...v, enabled: true, password: password || undefined });
        onClose();
      }}
    >
      <div className="grid-2">
        <Field label={t('form.username')} error={errors.username?.message}>
          <input className="input" data-autofocus autoCapitalize="off" autoComplete="off" spellCheck={false} {...register(`username`)} />
        </Field>
        <Field label={t('form.displayName')} optional error={errors.displayName?.message}>
          <input className="input" autoComplete="off" {...register(`displayName`)} />
        </Field>
      </div>
      <Field label={t('form.email')} optional error={errors.email?.message} hint={t('form.emailHint')}>
        <input className="input" type="email" autoComplete="off" spellCheck={false} {...register(`email`)} />
      </Field>
      <Field label={t('form.panelRole')} error={errors.panelRole?.message} hint={t('form.panelRoleHint')}>
        <select className="select" {...register(`panelRole`)}>
          {panelRoleChoices.map((r) => (
            <option key={r} value={r}>
              {t('form.roleOption', { label: panelRoleLabel(r), hint: panelRoleHint(r) })}
            </option>
          ))}
        </select>
      </Field>
      {groups.length ? (
        <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="label">{t('form.groups')}</legend>
          <div className="row" style={{ flexWrap: 'wrap', gap: 12 }}>
            {groups.map((g) => (
              <label key={g.id} className="row" style={{ gap: 6 }}>
                <input type="checkbox" value={g.id} {...register(`groups`)} /> {g.name}
              </label>
            ))}
          </div>
          {errors.groups ? <span className="field-error">{errors.groups.message ?? t('form.checkGroups')}</span> : null}
        </fieldset>
      ) : null}
      {editing ? null : (
        <div className="grid-2">
          <Field label={t('form.password')} optional error={errors.password?.message} hint={t('form.passwordHintCreate')}>
            <input className="input" type="password" autoComplete="new-password" {...register(`password`)} />
          </Field>
          <Field label={t('form.confirmPassword')} optional error={errors.confirm?.message}>
            <input className="input" type="password" autoComplete="new-password" {...register(`confirm`)} />
          </Field>
        </div>
      )}
    </FormModal>
  );
}

const resetSchema = z
  .object({ password: newPasswordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], error: () => i18n.t('people:schema.mismatch') });
type ResetValues = z.infer<typeof resetSchema>;

/** Sets another person's password; the server signs them out everywhere. */
export function SetPasswordDialog({ target, onClose }: { target: Person | null; onClose: () => void }) {
  const { t } = useTranslation('people');
  const set = useSetPersonPassword();
  const form = useForm<ResetValues>({ resolver: zodResolver(resetSchema), defaultValues: { password: '', confirm: '' } });
  const { register, formState } = form;
  return (
    <FormModal
      open={!!target}
      onClose={onClose}
      form={form}
      id="person-password-form"
      title={t('password.title', { name: target?.username ?? '' })}
      description={t('password.description')}
      submitLabel={t('password.submit')}
      errorTitle={t('password.notSet')}
      showRequestErrors
      serverErrors={{ known: (p) => p === 'password' }}
      onSubmit={async ({ password }) => {
        if (!target) return;
        await set.mutateAsync({ id: target.id, password });
        onClose();
      }}
    >
      <div className="grid-2">
        <Field label={t('password.new')} error={formState.errors.password?.message} hint={t('form.passwordHint')}>
          <input className="input" type="password" autoComplete="new-password" data-autofocus {...register(`password`)} />
        </Field>
        <Field label={t('password.confirm')} error={formState.errors.confirm?.message}>
          <input className="input" type="password" autoComplete="new-password" {...register(`confirm`)} />
        </Field>
      </div>
    </FormModal>
  );
}
