import { Link, useParams } from 'react-router';
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
  const { id = '' } = useParams();
  const access = useServiceAccess(id);
  if (access.isPending) return <LoadingRows rows={6} />;
  if (access.isError) return <ErrorState error={access.error} onRetry={() => access.refetch()} title="Could not load the access rules" />;
  return (
    <div className="stack" style={{ gap: 20 }}>
      <p className="muted">
        Rules decide, before any sign-in, which requests pass, which are refused and which must authenticate.{' '}
        <Link to="/access-rules">Global rules</Link> are checked first, then these.
      </p>
      {access.data.exposure === 'everyone' && (access.data.protections ?? []).length > 0 ? (
        <Alert tone="danger" title="Public: rules allow everyone">
          These rules let every request through without signing in, so the service&rsquo;s protections
          ({(access.data.protections ?? []).join(', ')}) are not asked for.
        </Alert>
      ) : null}
      {access.data.warnings?.length ? (
        <Alert tone="warning" title="The saved rules need attention">
          <ul className="plain-list">
            {access.data.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <ServiceRules serviceId={id} access={access.data} />
      <AccessLogTable serviceId={id} title="Recent requests" />
    </div>
  );
}

function ServiceRules({ serviceId, access }: { serviceId: string; access: ServiceAccess }) {
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
      opens={name ?? 'this service'}
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
