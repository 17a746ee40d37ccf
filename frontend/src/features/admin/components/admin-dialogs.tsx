import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import type { AdminAccount } from '@/lib/api-types';
import { errorMessage, isApiError } from '@/lib/api-client';
import { applyServerErrors } from '@/lib/form-errors';
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
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError, reset } = useForm<CreateValues>({
    resolver: zodResolver(createSchema),
    defaultValues: createDefaults,
  });
  const close = () => {
    reset(createDefaults);
    setFormError(null);
    onClose();
  };
  const onSubmit = handleSubmit(async ({ username, password, role }) => {
    setFormError(null);
    try {
      await create.mutateAsync({ username, password, role });
      close();
    } catch (e) {
      const rest = applyServerErrors(e, setError, { known: (p) => p === 'username' || p === 'password' || p === 'role' });
      if (rest.length || !isApiError(e) || e.fields.length === 0) setFormError(rest.join(' ') || errorMessage(e));
    }
  });
  const errors = formState.errors;
  return (
    <Modal
      open={open}
      onClose={close}
      title="Add administrator"
      description="They sign in with this username and password; share the password with them safely."
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="primary" type="submit" form="admin-create-form" loading={create.isPending}>
            Add administrator
          </Button>
        </>
      }
    >
      <form id="admin-create-form" className="stack" onSubmit={onSubmit} noValidate>
        {formError ? <Alert tone="danger" title="Not added">{formError}</Alert> : null}
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
      </form>
    </Modal>
  );
}

const resetSchema = z
  .object({ password: newPasswordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'Passwords do not match' });
type ResetValues = z.infer<typeof resetSchema>;

/** Sets another administrator's password; the server signs them out everywhere. */
export function ResetPasswordDialog({ target, onClose }: { target: AdminAccount | null; onClose: () => void }) {
  const set = useResetAdminPassword();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError, reset } = useForm<ResetValues>({
    resolver: zodResolver(resetSchema),
    defaultValues: { password: '', confirm: '' },
  });
  const close = () => {
    reset({ password: '', confirm: '' });
    setFormError(null);
    onClose();
  };
  const onSubmit = handleSubmit(async ({ password }) => {
    if (!target) return;
    setFormError(null);
    try {
      await set.mutateAsync({ id: target.id, password });
      close();
    } catch (e) {
      const rest = applyServerErrors(e, setError, { known: (p) => p === 'password' });
      if (rest.length || !isApiError(e) || e.fields.length === 0) setFormError(rest.join(' ') || errorMessage(e));
    }
  });
  return (
    <Modal
      open={!!target}
      onClose={close}
      title={`Set a new password for ${target?.username ?? ''}`}
      description="Every session of theirs is signed out."
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="primary" type="submit" form="admin-reset-form" loading={set.isPending}>
            Set password
          </Button>
        </>
      }
    >
      <form id="admin-reset-form" className="stack" onSubmit={onSubmit} noValidate>
        {formError ? <Alert tone="danger" title="Password not set">{formError}</Alert> : null}
        <div className="grid-2">
          <Field label="New password" error={formState.errors.password?.message} hint={newPasswordHint}>
            <input className="input" type="password" autoComplete="new-password" data-autofocus {...register('password')} />
          </Field>
          <Field label="Confirm new password" error={formState.errors.confirm?.message}>
            <input className="input" type="password" autoComplete="new-password" {...register('confirm')} />
          </Field>
        </div>
      </form>
    </Modal>
  );
}
