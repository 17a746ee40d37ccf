import { zodResolver } from '@hookform/resolvers/zod';
import { useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, FieldErrorText } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import type { CredentialSet } from '@/lib/api-types';
import { useSaveCredentialSet } from '../api/credential-sets';

const schema = z
  .object({
    name: z.string().trim().min(1, 'Give the set a name').max(100, 'At most 100 characters'),
    users: z
      .array(
        z.object({
          username: z.string().trim().min(1, 'Enter a username').regex(/^[^:]+$/, 'No colons'),
          password: z.string(),
          existing: z.boolean(),
        }),
      )
      .min(1, 'Add at least one user'),
  })
  .superRefine((v, ctx) => {
    v.users.forEach((u, i) => {
      if (!u.existing && u.password.length < 8) ctx.addIssue({ code: 'custom', path: ['users', i, 'password'], message: 'At least 8 characters' });
      if (u.password.length > 72) ctx.addIssue({ code: 'custom', path: ['users', i, 'password'], message: 'At most 72 characters' });
      if (u.existing && u.password && u.password.length < 8) ctx.addIssue({ code: 'custom', path: ['users', i, 'password'], message: 'At least 8 characters, or empty to keep' });
    });
    const names = v.users.map((u) => u.username.trim());
    names.forEach((n, i) => {
      if (n && names.indexOf(n) !== i) ctx.addIssue({ code: 'custom', path: ['users', i, 'username'], message: 'Duplicate username' });
    });
  });
type Values = z.infer<typeof schema>;

export function CredentialSetModal({ set, open, onClose }: { set?: CredentialSet; open: boolean; onClose: () => void }) {
  const save = useSaveCredentialSet();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    values: {
      name: set?.name ?? '',
      users: set?.users?.length ? set.users.map((u) => ({ username: u.username, password: '', existing: true })) : [{ username: '', password: '', existing: false }],
    },
  });
  const { register, control, formState } = form;
  const users = useFieldArray({ control, name: 'users' });
  const rootError = formState.errors.users?.root?.message ?? formState.errors.users?.message;
  return (
    <FormModal
      open={open}
      onClose={onClose}
      form={form}
      id="credset-form"
      size="lg"
      title={set ? `Edit ${set.name}` : 'New credential set'}
      description="A named list of username/password pairs. Attach it to services under Security → Basic auth."
      submitLabel="Save"
      serverErrors={{ known: (p) => /^(name|users|users\.\d+\.(username|password))$/.test(p), map: (p) => (p === 'users' ? 'users.root' : p) }}
      onSubmit={async (v) => {
        await save.mutateAsync({ id: set?.id, body: { name: v.name, users: v.users.map((u) => ({ username: u.username.trim(), password: u.password })) } });
        onClose();
      }}
    >
      <Field label="Name" error={formState.errors.name?.message}>
        <input className="input" placeholder="Family" data-autofocus {...register('name')} />
      </Field>
      <div className="stack-sm">
        <span className="field-label">Users</span>
        {users.fields.map((f, i) => {
          const e = formState.errors.users?.[i];
          return (
            <div key={f.id} className="stack-sm">
              <div className="row" style={{ flexWrap: 'nowrap', alignItems: 'flex-start' }}>
                <div className="grow">
                  <label className="sr-only" htmlFor={`cu-name-${i}`}>User {i + 1} username</label>
                  <input id={`cu-name-${i}`} className="input" placeholder="username" autoComplete="off" aria-invalid={e?.username ? true : undefined} {...register(`users.${i}.username`)} />
                </div>
                <div className="grow">
                  <label className="sr-only" htmlFor={`cu-pass-${i}`}>User {i + 1} password</label>
                  <input
                    id={`cu-pass-${i}`}
                    className="input"
                    type="password"
                    autoComplete="new-password"
                    placeholder={f.existing ? 'unchanged' : 'password'}
                    aria-invalid={e?.password ? true : undefined}
                    {...register(`users.${i}.password`)}
                  />
                </div>
                <Button variant="ghost" iconOnly icon="trash" aria-label={`Remove user ${i + 1}`} disabled={users.fields.length === 1} onClick={() => users.remove(i)} />
              </div>
              {e?.username?.message ? <FieldErrorText message={e.username.message} /> : null}
              {e?.password?.message ? <FieldErrorText message={e.password.message} /> : null}
            </div>
          );
        })}
        {rootError ? <FieldErrorText message={rootError} /> : null}
        <p className="field-hint">Passwords are stored hashed and never shown. Leave an existing user's password empty to keep it.</p>
        <div>
          <Button size="sm" icon="plus" onClick={() => users.append({ username: '', password: '', existing: false })}>
            Add user
          </Button>
        </div>
      </div>
    </FormModal>
  );
}
