import { useTranslation } from 'react-i18next';
import { dismissToast, useToasts } from '@/lib/toast';
import { Icon } from './icons';
import { RequestId } from './request-id';

export function Toaster() {
  const { t } = useTranslation('components');
  const toasts = useToasts();
  return (
    <div className="toasts" aria-live="polite" aria-relevant="additions">
      {toasts.map((item) => (
        <div key={item.id} className={`toast toast-${item.kind}`} role={item.kind === 'error' ? 'alert' : 'status'}>
          <Icon name={item.kind === 'success' ? 'checkCircle' : item.kind === 'error' ? 'xCircle' : 'info'} size={18} />
          <div className="toast-msg">
            <strong>{item.message}</strong>
            {item.detail ? <span>{item.detail}</span> : null}
            {item.requestId ? <RequestId id={item.requestId} /> : null}
          </div>
          <button className="btn btn-ghost btn-sm btn-icon" aria-label={t('toast.dismiss')} onClick={() => dismissToast(item.id)}>
            <Icon name="x" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
