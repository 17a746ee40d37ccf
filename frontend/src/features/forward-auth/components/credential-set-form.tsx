import { zodResolver } from '@hookform/resolvers/zod';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, FieldErrorText } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import type { CredentialSet } from '@/lib/api-types';
import i18n from '@/lib/i18n';
import { useSaveCredentialSet } from '../api/credential-sets';

type SetKey = 'name' | 'max100' | 'username' | 'noColons' | 'oneUser' | 'min8' | 'max72' | 'min8OrKeep' | 'duplicate';
const tr = (key: SetKey) => i18n.t(`forward-auth:credentialSet.schema.${key}`);
const msg = (key: SetKey) => ({ error: () => tr(key) });

const schema = z
  .object({
    name: z.string().trim().min(1, msg('name')).max(100, msg('max100')),
    users: z
      .array(
        z.object({
          username: z.string().trim().min(1, msg('username')).regex(/^[^:]+$/, msg('noColons')),
          password: z.string(),
          existing: z.boolean(),
        }),
      )
      .min(1, msg('oneUser')),
  })
  .superRefine((v, ctx) => {
    v.users.forEach((u, i) => {
      if (!u.existing && u.password.length < 8) ctx.addIssue({ code: 'custom', path: ['users', i, 'password'], message: tr('min8') });
      if (u.password.length > 72) ctx.addIssue({ code: 'custom', path: ['users', i, 'password'], message: tr('max72') });
      if (u.existing && u.password && u.password.length < 8) ctx.addIssue({ code: 'custom', path: ['users', i, 'password'], message: tr('min8OrKeep') });
    });
    const names = v.users.map((u) => u.username.trim());
    names.forEach((n, i) => {
      if (n && names.indexOf(n) !== i) ctx.addIssue({ code: 'custom', path: ['users', i, 'username'], message: tr('duplicate') });
    });
  });
type Values = z.infer<typeof schema>;

export function CredentialSetModal({ set, open, onClose }: { set?: CredentialSet; open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['forward-auth', 'common']);
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
      title={set ? t('credentialSet.editTitle', { name: set.name }) : t('credentialSet.newTitle')}
      description={t('credentialSet.description')}
      submitLabel={t('common:actions.save')}
      serverErrors={{ known: (p) => /^(name|users|users\.\d+\.(username|password))$/.test(p), map: (p) => (p === 'users' ? 'users.root' : p) }}
      onSubmit={async (v) => {
        await save.mutateAsync({ id: set?.id, body: { name: v.name, users: v.users.map((u) => ({ username: u.username.trim(), password: u.password })) } });
        onClose();
      }}
    >
      <Field label={t('credentialSet.name')} error={formState.errors.name?.message}>
        <input className="input" placeholder={t('credentialSet.namePlaceholder')} data-autofocus {...register('name')} />
      </Field>
      <div className="stack-sm">
        <span className="field-label">{t('credentialSet.users')}</span>
        {users.fields.map((f, i) => {
          const e = formState.errors.users?.[i];
          return (
            <div key={f.id} className="stack-sm">
              <div className="row" style={{ flexWrap: 'nowrap', alignItems: 'flex-start' }}>
                <div className="grow">
                  <label className="sr-only" htmlFor={`cu-name-${i}`}>{t('credentialSet.usernameLabel', { n: i + 1 })}</label>
                  <input id={`cu-name-${i}`} className="input" placeholder={t('credentialSet.usernamePlaceholder')} autoComplete="off" aria-invalid={e?.username ? true : undefined} {...register(`users.${i}.username`)} />
                </div>
                <div className="grow">
                  <label className="sr-only" htmlFor={`cu-pass-${i}`}>{t('credentialSet.passwordLabel', { n: i + 1 })}</label>
                  <input
                    id={`cu-pass-${i}`}
                    className="input"
                    type="password"
                    autoComplete="new-password"
                    placeholder={f.existing ? t('credentialSet.unchanged') : t('credentialSet.passwordPlaceholder')}
                    aria-invalid={e?.password ? true : undefined}
                    {...register(`users.${i}.password`)}
                  />
                </div>
                <Button variant="ghost" iconOnly icon="trash" aria-label={t('credentialSet.remove', { n: i + 1 })} disabled={users.fields.length === 1} onClick={() => users.remove(i)} />
              </div>
              {e?.username?.message ? <FieldErrorText message={e.username.message} /> : null}
              {e?.password?.message ? <FieldErrorText message={e.password.message} /> : null}
            </div>
          );
        })}
        {rootError ? <FieldErrorText message={rootError} /> : null}
        <p className="field-hint">{t('credentialSet.hint')}</p>
        <div>
          <Button size="sm" icon="plus" onClick={() => users.append({ username: '', password: '', existing: false })}>
            {t('credentialSet.add')}
          </Button>
        </div>
      </div>
    </FormModal>
  );
}
