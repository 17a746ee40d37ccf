import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-client';
import type { Passkey } from '@/lib/api-types';
import { useRenamePasskey } from '../api/two-factor';

/** Renames a passkey; the form starts from its current name. */
export function RenamePasskey({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const rename = useRenamePasskey();
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const next = name.trim();
    if (!next) return setError('Enter a name');
    rename.mutate({ id: passkey.id, name: next }, { onSuccess: onClose, onError: (err) => setError(errorMessage(err)) });
  };
  return (
    <Modal
      open
      title="Rename passkey"
      onClose={onClose}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="rename-passkey" variant="primary" loading={rename.isPending}>
            Rename
          </Button>
        </>
      }
    >
      <form id="rename-passkey" onSubmit={submit} noValidate>
        <Field label="Name" error={error ?? undefined}>
          <input className="input" maxLength={64} value={name} onChange={(e) => setName(e.target.value)} data-autofocus />
        </Field>
      </form>
    </Modal>
  );
}
