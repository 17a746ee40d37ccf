import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import type { ProxyStatus } from '@/lib/api-types';
import { secondsAgo } from '@/lib/format';
import { useProxyStatus } from '@/lib/api/resources';
import { ConnectionTest } from './connection-test';
import { SetupGuide } from './setup-guide';

/** The live check: green as soon as Traefik fetches the configuration (useProxyStatus polls every 5 s). */
export function PollCheck({ poll }: { poll?: ProxyStatus['poll'] }) {
  const { t } = useTranslation(['components', 'common']);
  if (!poll) return <Badge tone="neutral">{t('traefikSetup.checking')}</Badge>;
  if (poll.polled && poll.last && !poll.stopped)
    return (
      <span data-testid="poll-check" data-state="ok">
        <Badge tone="success" icon="checkCircle">
          {t('traefikSetup.polls')}
        </Badge>{' '}
        <span className="small muted">{t('traefikSetup.lastFetch', { ago: secondsAgo(poll.ageSeconds) })}</span>
      </span>
    );
  if (poll.polled && poll.stopped)
    return (
      <span data-testid="poll-check" data-state="stopped">
        <Badge tone="warning" icon="alert">
          {t('traefikSetup.stopped')}
        </Badge>{' '}
        <span className="small muted">{t('traefikSetup.lastFetch', { ago: secondsAgo(poll.ageSeconds) })}</span>
      </span>
    );
  return (
    <span data-testid="poll-check" data-state="waiting">
      <Badge tone="neutral">{t('traefikSetup.waiting')}</Badge>
    </span>
  );
}

/**
 * What a page that needs Traefik's API shows without it: the static configuration
 * to add, ready to copy, and a live check that Traefik fetches the panel's configuration.
 */
export function TraefikSetup({ reason }: { reason?: string }) {
  const { t } = useTranslation(['components', 'common']);
  const status = useProxyStatus();
  const poll = status.data?.poll;
  return (
    <Card>
      <CardHeader
        title={t('traefikSetup.title')}
        description={reason ? t('traefikSetup.descriptionWithReason', { reason }) : t('traefikSetup.description')}
      />
      <div className="card-body stack setup-steps">
        <section className="stack-sm" aria-labelledby="setup-provider">
          <div className="row-between">
            <h3 id="setup-provider" className="setup-step-title">
              {t('traefikSetup.connect')}
            </h3>
            <PollCheck poll={poll} />
          </div>
          <p className="small muted" style={{ margin: 0 }}>
            {t('traefikSetup.start')}
          </p>
          {poll?.setups?.length ? <SetupGuide setups={poll.setups} /> : null}
        </section>
        <ConnectionTest />
      </div>
    </Card>
  );
}
