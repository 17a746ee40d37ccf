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
        title="Managed Traefik"
        description="Gatehouse writes Traefik's static configuration (entrypoints, certificate resolvers) and DNS credentials; the wrapper in the Traefik container fetches changes and restarts Traefik."
        actions={
          s ? (
            s.status === 'applied' ? (
              <Badge tone="success" icon="check">Applied{s.appliedAt ? ` · ${formatDateTime(s.appliedAt)}` : ''}</Badge>
            ) : s.status === 'rejected' ? (
              <Badge tone="danger" icon="xCircle">Rejected by Traefik</Badge>
            ) : s.status === 'waiting' ? (
              <Badge icon="clock">Waiting for the wrapper</Badge>
            ) : (
              <Badge tone="info" icon="clock">Change pending</Badge>
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
            <Alert tone="info" title="Change pending">
              Traefik reads its static configuration only when it starts. The wrapper in the Traefik container fetches the
              change at its next poll (every 30 seconds by default) and restarts Traefik itself; this page turns to Applied once
              Traefik runs it. If it stays pending, check the Traefik container's log.
            </Alert>
          ) : s?.status === 'rejected' ? (
            <Alert tone="danger" title="Rejected by Traefik">
              {s.rejection?.reason || 'Traefik did not start with this configuration'}
              {s.rejection?.at ? ` (${formatDateTime(s.rejection.at)})` : ''}. Traefik keeps running the previous configuration; the wrapper
              tries again once you change this one.
            </Alert>
          ) : s?.status === 'waiting' ? (
            <Alert tone="info" title="Waiting for the wrapper's first report">
              The wrapper in the Traefik container reports the configuration Traefik runs a few seconds after starting it. Run
              Traefik with the Gatehouse wrapper and the same token as <code>PANEL_WRAPPER_TOKEN</code>.
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
  return (
    <EmptyState icon="server" title="Managed mode is off">
      Gatehouse is not managing Traefik's static configuration on this installation: you keep your own traefik.yml (the System page gives
      one). To let the panel write it, start the panel with <code>PANEL_MANAGED=true</code> (the bundled docker-compose.yml does) and run
      Traefik with the Gatehouse wrapper.
    </EmptyState>
  );
}
