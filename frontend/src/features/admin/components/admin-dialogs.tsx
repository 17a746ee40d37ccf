import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Field } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import type { AdminAccount } from '@/lib/api-types';
import { newPasswordHint, newPasswordSchema } from '@/lib/password-schema';
import { useCreateAdmin, useResetAdminPassword } from '../api/admins';

export const roleChoices = [
  { value: 'admin', label: 'Admin', hint: 'everything' },
  { value: 'viewer', label: 'Viewer', hint: 'reads, no changes' },
] as const;

const createSchema = z
  .object({
    // The same shape the server checks (admin.usernameRE).
    username: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._@-]{1,64}$/, '1-64 letters, digits or . _ @ -'),
    password: newPasswordSchema,
    confirm: z.string(),
    role: z.enum(['admin', 'viewer']),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'Passwords do not match' });
type CreateValues = z.infer<typeof createSchema>;
const createDefaults: CreateValues = { username: '', password: '', confirm: '', role: 'viewer' };

export function CreateAdminDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateAdmin();
  const form = useForm<CreateValues>({ resolver: zodResolver(createSchema), defaultValues: createDefaults });
  const { register, formState } = form;
  const errors = formState.errors;
  return (
    <FormModal
      open={open}
      onClose={onClose}
      form={form}
      id="admin-create-form"
      title="Add administrator"
      description="They sign in with this username and password; share the password with them safely."
      submitLabel="Add administrator"
      errorTitle="Not added"
      showRequestErrors
      serverErrors={{ known: (p) => p === 'username' || p === 'password' || p === 'role' }}
      onSubmit={async ({ username, password, role }) => {
        await create.mutateAsync({ username, password, role });
        onClose();
      }}
    >
      <Field label="Username" error={errors.username?.message}>
        <input className="input" data-autofocus autoCapitalize="off" autoComplete="off" spellCheck={false} {...register('username')} />
      </Field>
      <Field label="Role" error={errors.role?.message} hint="Viewers see every page except those that show secrets, and change nothing.">
        <select className="select" {...register('role')}>
          {roleChoices.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label} ({r.hint})
            </option>
          ))}
        </select>
      </Field>
      <div className="grid-2">
        <Field label="Password" error={errors.password?.message} hint={newPasswordHint}>
          <input className="input" type="password" autoComplete="new-password" {...register('password')} />
        </Field>
        <Field label="Confirm password" error={errors.confirm?.message}>
          <input className="input" type="password" autoComplete="new-password" {...register('confirm')} />
        </Field>
      </div>
    </FormModal>
  );
}

const resetSchema = z
  .object({ password: newPasswordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'Passwords do not match' });
type ResetValues = z.infer<typeof resetSchema>;

/** Sets another administrator's password; the server signs them out everywhere. */
export function ResetPasswordDialog({ target, onClose }: { target: AdminAccount | null; onClose: () => void }) {
  const set = useResetAdminPassword();
  const form = useForm<ResetValues>({ resolver: zodResolver(resetSchema), defaultValues: { password: '', confirm: '' } });
  const { register, formState } = form;
  return (
    <FormModal
      open={!!target}
      onClose={onClose}
      form={form}
      id="admin-reset-form"
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
