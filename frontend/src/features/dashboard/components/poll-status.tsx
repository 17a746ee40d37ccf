import { Trans, useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { SetupGuide } from '@/components/status/setup-guide';
import type { ProxyStatus } from '@/lib/api-types';
import { secondsAgo } from '@/lib/format';


/**
 * Whether Traefik fetches the configuration, from the panel's own record of
 * its polls: no need for Traefik's API.
 */
export function PollStatus({ poll }: { poll: ProxyStatus['poll'] }) {
  const { t } = useTranslation('dashboard');
  if (!poll.polled || !poll.last) {
    return (
      <Alert tone="info" title={t('poll.neverTitle')}>
        <p style={{ margin: '0 0 8px' }}>
          <Trans t={t} i18nKey="poll.never" components={{ code: <code /> }} />
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
  const remote = poll.last.remote;
  if (poll.stopped) {
    return (
      <Alert tone="warning" title={t('poll.stoppedTitle')}>
        <Trans
          t={t}
          i18nKey={remote ? 'poll.stoppedFrom' : 'poll.stopped'}
          values={{ when, remote, interval: Math.round(poll.intervalSeconds), url: `${poll.configUrl}/api/proxy/config` }}
          components={{ code: <code /> }}
        />
      </Alert>
    );
  }
  const line = poll.current
    ? remote
      ? t('poll.currentFrom', { when, remote })
      : t('poll.current', { when })
    : poll.behindKnown
      ? remote
        ? t('poll.behindFrom', { when, remote, count: poll.behind })
        : t('poll.behind', { when, count: poll.behind })
      : remote
        ? t('poll.behindUnknownFrom', { when, remote })
        : t('poll.behindUnknown', { when });
  return (
    <Alert tone={poll.current ? 'success' : 'info'} title={t('poll.okTitle')}>
      <span data-testid="poll-line">{line}</span>
    </Alert>
  );
}
