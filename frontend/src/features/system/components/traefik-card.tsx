import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { ConnectionTest } from '@/components/status/connection-test';
import { SetupGuide } from '@/components/status/setup-guide';
import { PollCheck } from '@/components/status/traefik-setup';
import { useProxyStatus } from '@/lib/api/resources';

/** Traefik's connection: its polls, its API, a test to run again, and the configuration to give it. */
export function TraefikCard() {
  const { t } = useTranslation(['system', 'components']);
  const status = useProxyStatus();
  const poll = status.data?.poll;
  const traefik = status.data?.traefik;
  return (
    <Card>
      <CardHeader title={t('traefik.title')} description={t('traefik.description')} />
      <div className="card-body stack">
        <dl className="kv small" data-testid="system-traefik">
          <dt>{t('traefik.configuration')}</dt>
          <dd>
            <PollCheck poll={poll} />
          </dd>
          <dt>{t('traefik.api')}</dt>
          <dd>
            {!traefik ? (
              <Badge tone="neutral">{t('components:traefikSetup.checking')}</Badge>
            ) : !traefik.configured ? (
              <Badge tone="neutral">{t('traefik.notConfigured')}</Badge>
            ) : traefik.reachable ? (
              <Badge tone="success" icon="checkCircle">
                {t('traefik.connected')}
              </Badge>
            ) : (
              <Badge tone="warning" icon="alert">
                {t('traefik.notAnswering')}
              </Badge>
            )}
          </dd>
        </dl>
        {traefik?.configured && !traefik.reachable ? (
          <Alert tone="warning" title={t('traefik.unreadable')}>
            {t('traefik.unreadableText')}
            {traefik.error ? (
              <details className="small muted">
                <summary>{t('components:connectionTest.details')}</summary>
                <code className="wrap">{traefik.error}</code>
              </details>
            ) : null}
          </Alert>
        ) : null}
        <ConnectionTest />
        {poll?.setups?.length ? (
          <details>
            <summary>{t('traefik.setup')}</summary>
            <div style={{ marginTop: 12 }}>
              <SetupGuide setups={poll.setups} />
            </div>
          </details>
        ) : null}
      </div>
    </Card>
  );
}
