import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Field } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import type { Passkey } from '@/lib/api-types';
import { useRenamePasskey } from '../api/two-factor';

const schema = z.object({ name: z.string().trim().min(1, 'Enter a name').max(64, 'At most 64 characters') });
type Values = z.infer<typeof schema>;

/** Renames a passkey; the form starts from its current name. */
export function RenamePasskey({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const rename = useRenamePasskey();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { name: passkey.name } });
  return (
    <FormModal
      open
      onClose={onClose}
      form={form}
      id="rename-passkey"
      title="Rename passkey"
      submitLabel="Rename"
      errorTitle="Not renamed"
      showRequestErrors
      // The form has one field: whatever field the server names, it is this one.
      serverErrors={{ map: () => 'name' }}
      onSubmit={async ({ name }) => {
        await rename.mutateAsync({ id: passkey.id, name });
        onClose();
      }}
    >
      <Field label="Name" error={form.formState.errors.name?.message}>
        <input className="input" maxLength={64} data-autofocus {...form.register('name')} />
      </Field>
    </FormModal>
  );
}
