import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { formatBytes, formatDateTime, formatDuration, formatVersion } from '@/lib/format';
import { useSystemInfo } from '../api/info';

const ENGINES: Record<string, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

function Address({ value, fallback }: { value: string; fallback: string }) {
  if (!value) return <span className="muted">{fallback}</span>;
  return (
    <span className="row" style={{ gap: 6 }}>
      <code className="wrap">{value}</code>
      <CopyButton text={value} label="Copy" />
    </span>
  );
}

/** The panel itself: version, uptime, where its data lives, and the addresses in effect. */
export function PanelCard() {
  const info = useSystemInfo();
  const v = info.data;
  return (
    <Card>
      <CardHeader title="This panel" description="Its version, how long it has run, where it keeps its data and the addresses it uses." />
      <div className="card-body">
        {info.isLoading ? <LoadingRows /> : null}
        {info.isError ? <ErrorState error={info.error} onRetry={() => void info.refetch()} /> : null}
        {v ? (
          <div className="grid-2">
            <dl className="kv small" data-testid="system-panel">
              <dt>Version</dt>
              <dd>{formatVersion(v.version)}</dd>
              <dt>Running for</dt>
              <dd title={`Since ${formatDateTime(v.startedAt)}`}>{formatDuration(v.uptimeSeconds)}</dd>
              <dt>Data directory</dt>
              <dd>
                <code className="wrap">{v.dataDir}</code>
              </dd>
              <dt>Database</dt>
              <dd>
                {ENGINES[v.database.engine] ?? v.database.engine}, {formatBytes(v.database.sizeBytes)}
              </dd>
              <dt>Traefik's static configuration</dt>
              <dd>{v.managed ? <Badge tone="info">Managed by the panel</Badge> : 'Yours (the panel writes only the dynamic configuration)'}</dd>
            </dl>
            <dl className="kv small" data-testid="system-urls">
              <dt>Public address</dt>
              <dd>
                <Address value={v.urls.public} fallback="Not set: set PANEL_PUBLIC_URL or an admin domain" />
              </dd>
              <dt>Internal address</dt>
              <dd>
                <Address value={v.urls.internal} fallback="Not known yet" />
                {!v.urls.internalSet ? (
                  <div className="field-hint">Derived from the listen address. Set PANEL_INTERNAL_URL to the address Traefik reaches the panel at.</div>
                ) : null}
              </dd>
              <dt>Forward-auth address</dt>
              <dd>
                <Address value={v.urls.forwardAuth} fallback="Not known yet" />
              </dd>
              <dt>Portal</dt>
              <dd>
                <Address value={v.urls.portal} fallback="Not set" />
              </dd>
            </dl>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
