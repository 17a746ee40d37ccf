import { Alert } from '@/components/ui/alert';
import { SetupGuide } from '@/components/status/setup-guide';
import type { ProxyStatus } from '@/lib/api-types';
import { secondsAgo } from '@/lib/format';


/**
 * Whether Traefik fetches the configuration, from the panel's own record of
 * its polls: no need for Traefik's API.
 */
export function PollStatus({ poll }: { poll: ProxyStatus['poll'] }) {
  if (!poll.polled || !poll.last) {
    return (
      <Alert tone="info" title="Traefik has never polled the configuration">
        <p style={{ margin: '0 0 8px' }}>
          Traefik has not fetched <code>/api/proxy/config</code> since the panel started. Start Traefik with the configuration below for the way
          you run it; this turns green at its first fetch.
        </p>
        {poll.setups?.length ? (
          <SetupGuide setups={poll.setups} />
        ) : (
          <pre className="code-block" data-testid="provider-snippet">
            {poll.snippet}
          </pre>
        )}
      </Alert>
    );
  }
  const when = secondsAgo(poll.ageSeconds);
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
