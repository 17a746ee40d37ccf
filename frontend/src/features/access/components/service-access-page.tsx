import { Trans, useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { StreamNotice, useStreamKind } from '@/components/status/stream-notice';
import { Alert } from '@/components/ui/alert';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import type { ServiceAccess } from '@/lib/api-types';
import { useServices } from '@/lib/api/resources';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { useSaveServiceAccess, useServiceAccess } from '../api/access';
import { AccessLogTable } from './access-log-table';
import { DefaultActionCard } from './default-action-card';
import { RulesForm } from './rules-form';
import { RuleTester } from './rule-tester';
import { isKnownRulePath, mapRulePath, toDraft, toFormValues } from './rule-schema';

/** The service's Access tab: its ordered rules and default action, the tester, and its live log. */
export function ServiceAccessPage() {
  const { t } = useTranslation('access');
  const { id = '' } = useParams();
  const access = useServiceAccess(id);
  const stream = useStreamKind(id);
  if (access.isPending) return <LoadingRows rows={6} />;
  if (access.isError) return <ErrorState error={access.error} onRetry={() => access.refetch()} title={t('service.loadFailed')} />;
  if (stream) {
    // A TCP or UDP service takes no rules; ones left by an older release are shown so they can be removed.
    const leftover = (access.data.rules ?? []).length > 0 || !!access.data.defaultAction;
    return (
      <div className="stack" style={{ gap: 20 }}>
        <StreamNotice kind={stream} leftover={leftover} />
        {leftover ? <ServiceRules serviceId={id} access={access.data} /> : null}
      </div>
    );
  }
  return (
    <div className="stack" style={{ gap: 20 }}>
      <p className="muted">
        <Trans t={t} i18nKey="service.intro" components={{ a: <Link to="/access-rules" /> }} />
      </p>
      {access.data.exposure === 'everyone' && (access.data.protections ?? []).length > 0 ? (
        <Alert tone="danger" title={t('service.public')}>
          {t('service.publicText', { protections: (access.data.protections ?? []).join(', ') })}
        </Alert>
      ) : null}
      {access.data.warnings?.length ? (
        <Alert tone="warning" title={t('service.warnings')}>
          <ul className="plain-list">
            {access.data.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <ServiceRules serviceId={id} access={access.data} />
      <AccessLogTable serviceId={id} title={t('service.recent')} />
    </div>
  );
}

function ServiceRules({ serviceId, access }: { serviceId: string; access: ServiceAccess }) {
  const { t } = useTranslation('access');
  const save = useSaveServiceAccess(serviceId);
  const name = useServices().data?.find((s) => s.id === serviceId)?.name;
  // The tester posts a draft: a write the server refuses a viewer.
  const canWrite = useCanWrite();
  return (
    <RulesForm
      // A different service (or a save elsewhere) starts a fresh form.
      key={serviceId}
      initial={toFormValues(access.rules ?? [], access.defaultAction ?? '')}
      geoip={access.geoip}
      saving={save.isPending}
      opens={name ?? t('service.thisService')}
      onSave={async (v, confirmPublic) => {
        const saved = await save.mutateAsync({ ...toDraft(v), ...(confirmPublic ? { confirmPublic } : {}) });
        return toFormValues(saved.rules ?? [], saved.defaultAction ?? '');
      }}
      top={<DefaultActionCard protections={access.protections ?? []} saved={access.defaultAction ?? ''} />}
      aside={
        canWrite
          ? (form, focusInvalid) => (
              <RuleTester
                serviceId={serviceId}
                getDraft={() => toDraft(form.getValues())}
                onDraftError={(e) => {
                  applyServerErrors(e, form.setError, { map: mapRulePath, known: isKnownRulePath });
                  focusInvalid();
                }}
              />
            )
          : undefined
      }
    />
  );
}
