import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Field } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import type { Passkey } from '@/lib/api-types';
import i18n from '@/lib/i18n';
import { useRenamePasskey } from '../api/two-factor';

const schema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: () => i18n.t('account:passkeys.nameRequired') })
    .max(64, { error: () => i18n.t('account:passkeys.nameTooLong') }),
});
type Values = z.infer<typeof schema>;

/** Renames a passkey; the form starts from its current name. */
export function RenamePasskey({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const { t } = useTranslation('account');
  const rename = useRenamePasskey();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { name: passkey.name } });
  return (
    <FormModal
      open
      onClose={onClose}
      form={form}
      id="rename-passkey"
      title={t('passkeys.renameTitle')}
      submitLabel={t('passkeys.renameSubmit')}
      errorTitle={t('passkeys.notRenamed')}
      showRequestErrors
      // The form has one field: whatever field the server names, it is this one.
      serverErrors={{ map: () => 'name' }}
      onSubmit={async ({ name }) => {
        await rename.mutateAsync({ id: passkey.id, name });
        onClose();
      }}
    >
      <Field label={t('passkeys.name')} error={form.formState.errors.name?.message}>
        <input className="input" maxLength={64} data-autofocus {...form.register('name')} />
      </Field>
    </FormModal>
  );
}
