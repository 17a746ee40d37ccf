import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from './modal';

type ConfirmDeleteProps<T> = {
  /** The record to delete; the dialog is open while there is one. */
  item: T | null;
  title: ReactNode;
  message: ReactNode;
  loading?: boolean;
  /** Deletes the record; a failure is left to the mutation's error toast. */
  onDelete: (item: T) => Promise<unknown>;
  /** Called after the deletion (or its failure) and on Cancel: the caller forgets the record. */
  onClose: () => void;
};

/** Asks before deleting a list's record, then deletes it and closes, whatever the answer. */
export function ConfirmDeleteDialog<T>({ item, title, message, loading, onDelete, onClose }: ConfirmDeleteProps<T>) {
  const { t } = useTranslation(['components', 'common']);
  return (
    <ConfirmDialog
      open={item !== null}
      title={title}
      message={message}
      confirmLabel={t('common:actions.delete')}
      danger
      loading={loading}
      onConfirm={async () => {
        if (item !== null) await onDelete(item).catch(() => undefined);
        onClose();
      }}
      onCancel={onClose}
    />
  );
}
