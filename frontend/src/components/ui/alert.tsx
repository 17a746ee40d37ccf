import type { ReactNode } from 'react';
import { Icon, type IconName } from './icons';

type Tone = 'info' | 'warning' | 'danger' | 'success';
const icons: Record<Tone, IconName> = { info: 'info', warning: 'alert', danger: 'xCircle', success: 'checkCircle' };

export function Alert({ tone = 'info', title, children, action }: { tone?: Tone; title?: ReactNode; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'danger' || tone === 'warning' ? 'alert' : 'status'}>
      <Icon name={icons[tone]} size={18} />
      <div className="grow">
        {title ? <div className="alert-title">{title}</div> : null}
        {children ? <div className="alert-body">{children}</div> : null}
      </div>
      {action}
    </div>
  );
}
