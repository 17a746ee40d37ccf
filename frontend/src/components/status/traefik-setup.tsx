import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import type { ProxyStatus } from '@/lib/api-types';
import { useProxyStatus } from '@/lib/api/resources';

/** Traefik's API on its internal "traefik" entrypoint (:8080), as docs/install.md documents it. */
export const API_SNIPPET = 'api:\n  insecure: true\n';
export const API_ENV = 'PANEL_PROXY_API_URL=http://traefik:8080';

function ago(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return s < 120 ? `${s} s ago` : s < 7200 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
}

/** The live check: green as soon as Traefik fetches the configuration (useProxyStatus polls every 5 s). */
export function PollCheck({ poll }: { poll?: ProxyStatus['poll'] }) {
  if (!poll) return <Badge tone="neutral">Checking…</Badge>;
  if (poll.polled && poll.last && !poll.stopped)
    return (
      <span data-testid="poll-check" data-state="ok">
        <Badge tone="success" icon="checkCircle">Traefik polls</Badge> <span className="small muted">last fetch {ago(poll.ageSeconds)}</span>
      </span>
    );
  if (poll.polled && poll.stopped)
    return (
      <span data-testid="poll-check" data-state="stopped">
        <Badge tone="warning" icon="alert">Polls stopped</Badge> <span className="small muted">last fetch {ago(poll.ageSeconds)}</span>
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
            <h3 id="setup-provider" className="setup-step-title">1. Traefik fetches the configuration</h3>
            <PollCheck poll={poll} />
          </div>
          <p className="small muted" style={{ margin: 0 }}>In Traefik's static configuration (traefik.yml):</p>
          <pre className="code-block" data-testid="setup-provider-snippet">{poll?.snippet ?? ''}</pre>
          <div>{poll?.snippet ? <CopyButton text={poll.snippet} label="Copy provider snippet" /> : null}</div>
        </section>
        <section className="stack-sm" aria-labelledby="setup-api">
          <h3 id="setup-api" className="setup-step-title">2. The panel reads Traefik's API</h3>
          <p className="small muted" style={{ margin: 0 }}>
            Enable the API on Traefik's internal <code>traefik</code> entrypoint (:8080; never publish that port):
          </p>
          <pre className="code-block" data-testid="setup-api-snippet">{API_SNIPPET}</pre>
          <div><CopyButton text={API_SNIPPET} label="Copy API snippet" /></div>
          <p className="small muted" style={{ margin: 0 }}>Then set the panel's environment and restart it:</p>
          <pre className="code-block" data-testid="setup-api-env">{API_ENV}</pre>
          <div><CopyButton text={API_ENV} label="Copy variable" /></div>
        </section>
      </div>
    </Card>
  );
}
