import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { ErrorState } from '@/components/ui/states';
import { isApiError } from '@/lib/api-client';
import { useMe, useSystem } from '@/lib/api/system';

function FullPageSpinner() {
  const { t } = useTranslation('app');
  return (
    <div style={{ display: 'grid', placeItems: 'center', height: '100%' }} aria-busy="true">
      <span className="spinner" style={{ width: 24, height: 24 }} aria-label={t('loading')} />
    </div>
  );
}

function ServerDown({ retry, error }: { retry: () => void; error: unknown }) {
  const { t } = useTranslation('app');
  return (
    <div style={{ maxWidth: 560, margin: '80px auto', padding: 16 }}>
      <ErrorState error={error} onRetry={retry} title={t('errors.unreachable')} />
    </div>
  );
}

/** Sends visitors to /setup on a fresh install and to /login without a session. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useTranslation('app');
  const location = useLocation();
  const system = useSystem();
  const me = useMe(system.data ? !system.data.setupRequired : false);
  if (system.data?.setupRequired) return <Navigate to="/setup" replace />;
  if (system.isError) return <ServerDown retry={() => system.refetch()} error={system.error} />;
  if (me.isPending || system.isPending) return <FullPageSpinner />;
  if (me.isError) {
    if (isApiError(me.error) && me.error.status === 401) {
      const next = encodeURIComponent(location.pathname + location.search);
      return <Navigate to={`/login?next=${next}`} replace />;
    }
    return (
      <div style={{ maxWidth: 560, margin: '80px auto', padding: 16 }}>
        <ErrorState error={me.error} onRetry={() => me.refetch()} title={t('errors.unreachable')} />
      </div>
    );
  }
  return <>{children}</>;
}
