import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { CopyButton } from './copy-button';
import { Modal } from './modal';

type Props = {
  /** The secret to show; null closes the dialog. */
  value: string | null;
  onClose: () => void;
  title: string;
  /** The input's accessible name, e.g. "API token value". */
  label: string;
  /** How to use it: examples, warnings. */
  children?: ReactNode;
};

/** A secret the API shows once (a token's value): copy it now, it is never returned again. */
export function SecretOnceDialog({ value, onClose, title, label, children }: Props) {
  const { t } = useTranslation(['components', 'common']);
  return (
    <Modal
      open={value !== null}
      onClose={onClose}
      size="lg"
      title={title}
      description={t('secretOnce.description')}
      footer={
        <Button variant="primary" onClick={onClose}>
          {t('secretOnce.done')}
        </Button>
      }
    >
      {value !== null ? (
        <div className="stack">
          <div className="link-box">
            <input className="input" aria-label={label} readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton text={value} size="md" />
          </div>
          {children}
        </div>
      ) : null}
    </Modal>
  );
}
