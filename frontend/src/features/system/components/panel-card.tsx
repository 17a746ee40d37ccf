import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { formatBytes, formatDateTime, formatDuration, formatVersion } from '@/lib/format';
import { useSystemInfo } from '../api/info';

const ENGINES: Record<string, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

function Address({ value, fallback }: { value: string; fallback: string }) {
  const { t } = useTranslation('common');
  if (!value) return <span className="muted">{fallback}</span>;
  return (
    <span className="row" style={{ gap: 6 }}>
      <code className="wrap">{value}</code>
      <CopyButton text={value} label={t('actions.copy')} />
    </span>
  );
}

/** The panel itself: version, uptime, where its data lives, and the addresses in effect. */
export function PanelCard() {
  const { t } = useTranslation('system');
  const info = useSystemInfo();
  const v = info.data;
  return (
    <Card>
      <CardHeader title={t('panel.title')} description={t('panel.description')} />
      <div className="card-body">
        {info.isLoading ? <LoadingRows /> : null}
        {info.isError ? <ErrorState error={info.error} onRetry={() => void info.refetch()} /> : null}
        {v ? (
          <div className="grid-2">
            <dl className="kv small" data-testid="system-panel">
              <dt>{t('panel.version')}</dt>
              <dd>{formatVersion(v.version)}</dd>
              <dt>{t('panel.runningFor')}</dt>
              <dd title={t('panel.since', { when: formatDateTime(v.startedAt) })}>{formatDuration(v.uptimeSeconds)}</dd>
              <dt>{t('panel.dataDir')}</dt>
              <dd>
                <code className="wrap">{v.dataDir}</code>
              </dd>
              <dt>{t('panel.database')}</dt>
              <dd>
                {t('panel.databaseValue', { engine: ENGINES[v.database.engine] ?? v.database.engine, size: formatBytes(v.database.sizeBytes) })}
              </dd>
              <dt>{t('panel.static')}</dt>
              <dd>{v.managed ? <Badge tone="info">{t('panel.managed')}</Badge> : t('panel.yours')}</dd>
            </dl>
            <dl className="kv small" data-testid="system-urls">
              <dt>{t('panel.public')}</dt>
              <dd>
                <Address value={v.urls.public} fallback={t('panel.publicUnset')} />
              </dd>
              <dt>{t('panel.internal')}</dt>
              <dd>
                <Address value={v.urls.internal} fallback={t('panel.unknown')} />
                {!v.urls.internalSet ? (
                  <div className="field-hint">{t('panel.internalDerived')}</div>
                ) : null}
              </dd>
              <dt>{t('panel.forwardAuth')}</dt>
              <dd>
                <Address value={v.urls.forwardAuth} fallback={t('panel.unknown')} />
              </dd>
              <dt>{t('panel.portal')}</dt>
              <dd>
                <Address value={v.urls.portal} fallback={t('panel.notSet')} />
              </dd>
            </dl>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
