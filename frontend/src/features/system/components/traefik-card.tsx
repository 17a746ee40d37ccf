import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { ConnectionTest } from '@/components/status/connection-test';
import { SetupGuide } from '@/components/status/setup-guide';
import { PollCheck } from '@/components/status/traefik-setup';
import { useProxyStatus } from '@/lib/api/resources';

/** Traefik's connection: its polls, its API, a test to run again, and the configuration to give it. */
export function TraefikCard() {
  const status = useProxyStatus();
  const poll = status.data?.poll;
  const t = status.data?.traefik;
  return (
    <Card>
      <CardHeader title="Traefik" description="Whether Traefik fetches the panel's configuration, and whether the panel reads Traefik's API." />
      <div className="card-body stack">
        <dl className="kv small" data-testid="system-traefik">
          <dt>Configuration</dt>
          <dd>
            <PollCheck poll={poll} />
          </dd>
          <dt>API</dt>
          <dd>
            {!t ? (
              <Badge tone="neutral">Checking…</Badge>
            ) : !t.configured ? (
              <Badge tone="neutral">Not configured</Badge>
            ) : t.reachable ? (
              <Badge tone="success" icon="checkCircle">
                Connected
              </Badge>
            ) : (
              <Badge tone="warning" icon="alert">
                Not answering
              </Badge>
            )}
          </dd>
        </dl>
        {t?.configured && !t.reachable ? (
          <Alert tone="warning" title="The panel cannot read Traefik's API right now">
            Your services are still served; the live views wait until it answers. Run the test below for what to check.
            {t.error ? (
              <details className="small muted">
                <summary>Details</summary>
                <code className="wrap">{t.error}</code>
              </details>
            ) : null}
          </Alert>
        ) : null}
        <ConnectionTest />
        {poll?.setups?.length ? (
          <details>
            <summary>Traefik's configuration (traefik.yml) for Docker or this host</summary>
            <div style={{ marginTop: 12 }}>
              <SetupGuide setups={poll.setups} />
            </div>
          </details>
        ) : null}
      </div>
    </Card>
  );
}
