import type { ReactNode } from 'react';
import { Icon, type IconName } from './icons';

export type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info' | 'primary';

/** Status pill. Always carries text (and usually an icon) so colour is never the only signal. */
export function Badge({ tone = 'neutral', icon, children, title }: { tone?: Tone; icon?: IconName; children: ReactNode; title?: string }) {
  return (
    <span className={`badge${tone === 'neutral' ? '' : ` badge-${tone}`}`} title={title}>
      {icon ? <Icon name={icon} size={12} /> : <span className="dot" aria-hidden="true" />}
      {children}
    </span>
  );
}
