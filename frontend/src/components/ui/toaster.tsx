import { dismissToast, useToasts } from '@/lib/toast';
import { Icon } from './icons';
import { RequestId } from './request-id';

export function Toaster() {
  const toasts = useToasts();
  return (
    <div className="toasts" aria-live="polite" aria-relevant="additions">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
          <Icon name={t.kind === 'success' ? 'checkCircle' : t.kind === 'error' ? 'xCircle' : 'info'} size={18} />
          <div className="toast-msg">
            <strong>{t.message}</strong>
            {t.detail ? <span>{t.detail}</span> : null}
            {t.requestId ? <RequestId id={t.requestId} /> : null}
          </div>
          <button className="btn btn-ghost btn-sm btn-icon" aria-label="Dismiss notification" onClick={() => dismissToast(t.id)}>
            <Icon name="x" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
