import { Trans, useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { PageHeader } from '@/components/ui/card';
import { ReadOnlyNote } from '@/components/ui/read-only';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { isApiError } from '@/lib/api-client';
import { useCanWrite, useSystem } from '@/lib/api/system';
import { formatDateTime } from '@/lib/format';
import { useManagedState } from '../api/managed';
import { CredentialsCard } from './credentials-card';
import { StaticConfigForm } from './static-config-form';

export function ManagedPage() {
  const { t } = useTranslation('managed');
  const system = useSystem();
  // With managed mode off there is nothing to ask: the page says how to turn it on.
  const off = system.data?.managed === false;
  // Asked once the panel says it is managed (or cannot say).
  const state = useManagedState(system.data ? system.data.managed : system.isError);
  const s = state.data;
  const canWrite = useCanWrite();
  return (
    <>
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          s ? (
            s.status === 'applied' ? (
              <Badge tone="success" icon="check">
                {s.appliedAt ? t('page.appliedAt', { date: formatDateTime(s.appliedAt) }) : t('page.applied')}
              </Badge>
            ) : s.status === 'rejected' ? (
              <Badge tone="danger" icon="xCircle">{t('page.rejected')}</Badge>
            ) : s.status === 'waiting' ? (
              <Badge icon="clock">{t('page.waiting')}</Badge>
            ) : (
              <Badge tone="info" icon="clock">{t('page.pending')}</Badge>
            )
          ) : null
        }
      />
      {off ? (
        <ManagedOff />
      ) : state.isPending ? (
        <LoadingRows rows={6} />
      ) : state.isError ? (
        isApiError(state.error) && state.error.status === 404 ? (
          <ManagedOff />
        ) : (
          <ErrorState error={state.error} onRetry={() => state.refetch()} />
        )
      ) : (
        <div className="stack" style={{ gap: 20 }}>
          {canWrite ? null : <ReadOnlyNote />}
          {s?.status === 'pending' ? (
            <Alert tone="info" title={t('page.pending')}>
              {t('page.pendingBody')}
            </Alert>
          ) : s?.status === 'rejected' ? (
            <Alert tone="danger" title={t('page.rejected')}>
              {s.rejection?.at
                ? t('page.rejectedBodyAt', { reason: s.rejection.reason || t('page.didNotStart'), date: formatDateTime(s.rejection.at) })
                : t('page.rejectedBody', { reason: s.rejection?.reason || t('page.didNotStart') })}
            </Alert>
          ) : s?.status === 'waiting' ? (
            <Alert tone="info" title={t('page.waitingTitle')}>
              <Trans t={t} i18nKey="page.waitingBody" components={{ code: <code /> }} />
            </Alert>
          ) : null}
          <StaticConfigForm state={s!} />
          <CredentialsCard state={s!} />
        </div>
      )}
    </>
  );
}

function ManagedOff() {
  const { t } = useTranslation('managed');
  return (
    <EmptyState icon="server" title={t('off.title')}>
      <Trans t={t} i18nKey="off.body" components={{ code: <code /> }} />
    </EmptyState>
  );
}
