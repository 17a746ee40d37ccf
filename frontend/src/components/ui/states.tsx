import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, isApiError } from '@/lib/api-client';
import type { RuntimeStatus } from '@/lib/api-types';
import { TraefikSetup } from '../status/traefik-setup';
import { Alert } from './alert';
import { Button } from './button';
import { Icon, type IconName } from './icons';
import { RequestId } from './request-id';

export function EmptyState({ icon = 'box', title, children, action }: { icon?: IconName; title: ReactNode; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty">
      <div className="empty-icon">
        <Icon name={icon} size={22} />
      </div>
      <h3>{title}</h3>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  );
}

export function ErrorState({ error, onRetry, title }: { error: unknown; onRetry?: () => void; title?: string }) {
  const { t } = useTranslation(['components', 'common']);
  return (
    <Alert
      tone="danger"
      title={title ?? t('states.loadFailed')}
      action={
        onRetry ? (
          <Button size="sm" icon="refresh" onClick={onRetry}>
            {t('states.retry')}
          </Button>
        ) : undefined
      }
    >
      {errorMessage(error)}
      {isApiError(error) && error.requestId ? (
        <div style={{ marginTop: 6 }}>
          <RequestId id={error.requestId} />
        </div>
      ) : null}
    </Alert>
  );
}

export function LoadingRows({ rows = 4 }: { rows?: number }) {
  const { t } = useTranslation(['components', 'common']);
  return (
    <div className="stack-sm" aria-busy="true" aria-label={t('states.loading')} style={{ padding: 20 }}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" style={{ width: `${90 - i * 12}%` }} />
      ))}
    </div>
  );
}

/** Server messages come without a final full stop; add one so the next sentence reads well. */
function sentence(text?: string): string {
  const t = (text ?? '').trim();
  return t && !/[.!?]$/.test(t) ? `${t}.` : t;
}

/**
 * Banner for runtime views when Traefik is not configured (the setup steps, with a live
 * check of Traefik's polls) or cannot be reached.
 */
export function RuntimeBanner({ status }: { status?: RuntimeStatus | null }) {
  const { t } = useTranslation(['components', 'common']);
  if (!status) return null;
  if (!status.configured) return <TraefikSetup reason={sentence(status.error)} />;
  if (!status.reachable)
    return (
      <Alert tone="warning" title={t('states.unreachable')}>
        {status.error ? t('states.unreachableBecause', { reason: sentence(status.error) }) : t('states.unreachableText')}
      </Alert>
    );
  return null;
}
