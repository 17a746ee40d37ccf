import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Button } from './button';

type ModalProps = {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'md' | 'lg';
  description?: ReactNode;
};

const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Accessible modal: focus moves in, Tab is trapped, Escape closes, focus returns on close. */
export function Modal({ open, title, onClose, children, footer, size = 'md', description }: ModalProps) {
  const { t } = useTranslation(['components', 'common']);
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const el = ref.current;
    const first = el?.querySelector<HTMLElement>('[data-autofocus]') ?? el?.querySelector<HTMLElement>(focusable);
    first?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        onCloseRef.current();
      } else if (e.key === 'Tab' && el) {
        const items = Array.from(el.querySelectorAll<HTMLElement>(focusable));
        if (items.length === 0) return;
        const firstItem = items[0]!;
        const lastItem = items[items.length - 1]!;
        if (e.shiftKey && document.activeElement === firstItem) {
          e.preventDefault();
          lastItem.focus();
        } else if (!e.shiftKey && document.activeElement === lastItem) {
          e.preventDefault();
          firstItem.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [open]);

  if (!open) return null;
  return createPortal(
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={ref}
        className={`modal${size === 'lg' ? ' modal-lg' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descId : undefined}
      >
        <div className="modal-header">
          <div>
            <h2 id={titleId}>{title}</h2>
            {description ? (
              <p id={descId} className="muted small" style={{ marginTop: 4 }}>
                {description}
              </p>
            ) : null}
          </div>
          <Button variant="ghost" size="sm" iconOnly icon="x" aria-label={t('common:actions.close')} onClick={onClose} />
        </div>
        <div className="modal-body">{children}</div>
        {footer ? <div className="modal-footer">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}

type ConfirmProps = {
  open: boolean;
  title: ReactNode;
  message: ReactNode;
  confirmLabel?: string;
  danger?: boolean;
  loading?: boolean;
  /** Why the action cannot be taken now: the confirm button is disabled and this is shown. */
  blockedReason?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
};

export function ConfirmDialog({ open, title, message, confirmLabel, danger, loading, blockedReason, onConfirm, onCancel }: ConfirmProps) {
  const { t } = useTranslation(['components', 'common']);
  return (
    <Modal
      open={open}
      title={title}
      onClose={onCancel}
      footer={
        <>
          <Button onClick={onCancel} data-autofocus>
            {t('common:actions.cancel')}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} loading={loading} disabled={!!blockedReason} aria-describedby={blockedReason ? 'confirm-blocked' : undefined} onClick={onConfirm}>
            {confirmLabel ?? t('common:actions.confirm')}
          </Button>
        </>
      }
    >
      <div className="muted">{message}</div>
      {blockedReason ? (
        <div id="confirm-blocked" className="field-error" style={{ marginTop: 8 }}>
          {blockedReason}
        </div>
      ) : null}
    </Modal>
  );
}
