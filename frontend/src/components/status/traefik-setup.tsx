import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import type { ProxyStatus } from '@/lib/api-types';
import { secondsAgo } from '@/lib/format';
import { useProxyStatus } from '@/lib/api/resources';
import { ConnectionTest } from './connection-test';
import { SetupGuide } from './setup-guide';

/** The live check: green as soon as Traefik fetches the configuration (useProxyStatus polls every 5 s). */
export function PollCheck({ poll }: { poll?: ProxyStatus['poll'] }) {
  if (!poll) return <Badge tone="neutral">Checking…</Badge>;
  if (poll.polled && poll.last && !poll.stopped)
    return (
      <span data-testid="poll-check" data-state="ok">
        <Badge tone="success" icon="checkCircle">Traefik polls</Badge> <span className="small muted">last fetch {secondsAgo(poll.ageSeconds)}</span>
      </span>
    );
  if (poll.polled && poll.stopped)
    return (
      <span data-testid="poll-check" data-state="stopped">
        <Badge tone="warning" icon="alert">Polls stopped</Badge> <span className="small muted">last fetch {secondsAgo(poll.ageSeconds)}</span>
      </span>
    );
  return (
    <span data-testid="poll-check" data-state="waiting">
      <Badge tone="neutral">Waiting for the first poll</Badge>
    </span>
  );
}

/**
 * What a page that needs Traefik's API shows without it: the static configuration
 * to add, ready to copy, and a live check that Traefik fetches the panel's configuration.
 */
export function TraefikSetup({ reason }: { reason?: string }) {
  const status = useProxyStatus();
  const poll = status.data?.poll;
  return (
    <Card>
      <CardHeader
        title="Traefik's API is not connected"
        description={
          <>
            {reason ? `${reason} ` : ''}Live routers, certificates, health and metrics come from Traefik's API. Your services are still served
            through Traefik's HTTP provider.
          </>
        }
      />
      <div className="card-body stack setup-steps">
        <section className="stack-sm" aria-labelledby="setup-provider">
          <div className="row-between">
            <h3 id="setup-provider" className="setup-step-title">Connect Traefik</h3>
            <PollCheck poll={poll} />
          </div>
          <p className="small muted" style={{ margin: 0 }}>
            Start Traefik with this configuration: it fetches your services from the panel, and its API and metrics feed these pages.
          </p>
          {poll?.setups?.length ? <SetupGuide setups={poll.setups} /> : null}
        </section>
        <ConnectionTest />
      </div>
    </Card>
  );
}
