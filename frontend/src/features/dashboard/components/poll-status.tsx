import { Alert } from '@/components/ui/alert';
import { CopyButton } from '@/components/ui/copy-button';
import type { ProxyStatus } from '@/lib/api-types';

function ago(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 120) return `${s} s ago`;
  if (s < 7200) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}

/**
 * Whether Traefik fetches the configuration, from the panel's own record of
 * its polls: no need for Traefik's API.
 */
export function PollStatus({ poll }: { poll: ProxyStatus['poll'] }) {
  if (!poll.polled || !poll.last) {
    return (
      <Alert tone="info" title="Traefik has never polled the configuration">
        <p style={{ margin: '0 0 8px' }}>
          No poll of <code>/api/proxy/config</code> since the panel started. Add Traefik's HTTP provider to its static configuration; this line
          turns green at its first poll.
        </p>
        <pre className="code-block" data-testid="provider-snippet">{poll.snippet}</pre>
        <CopyButton text={poll.snippet} label="Copy snippet" />
      </Alert>
    );
  }
  const when = ago(poll.ageSeconds);
  const from = poll.last.remote ? ` from ${poll.last.remote}` : '';
  if (poll.stopped) {
    return (
      <Alert tone="warning" title="Traefik stopped polling">
        Traefik last fetched the configuration {when}
        {from}; it polls about every {Math.round(poll.intervalSeconds)} s. Changes made since then are not applied. Check that Traefik is running and
        can reach <code>{poll.configUrl}/api/proxy/config</code>.
      </Alert>
    );
  }
  const version = poll.current
    ? 'and runs the current version'
    : poll.behindKnown
      ? `and is ${poll.behind} change${poll.behind === 1 ? '' : 's'} behind`
      : 'and is behind (it last fetched a version from before the panel started)';
  return (
    <Alert tone={poll.current ? 'success' : 'info'} title="Traefik polls the configuration">
      <span data-testid="poll-line">
        Traefik fetched the configuration {when}
        {from}, {version}.
      </span>
    </Alert>
  );
}
