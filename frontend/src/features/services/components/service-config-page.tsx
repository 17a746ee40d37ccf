import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Card, CardHeader } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { Tabs } from '@/components/ui/tabs';
import { toYaml } from '@/lib/yaml';
import { useConfigPreview } from '../api/services';

export function ServiceConfigPage() {
  const { t } = useTranslation('services');
  const { id } = useParams();
  const preview = useConfigPreview(id);
  const [format, setFormat] = useState<'yaml' | 'json'>('yaml');
  const data = preview.data;
  const empty =
    data && ['routers', 'services', 'middlewares', 'serversTransports'].every((k) => !data[k as keyof typeof data] || Object.keys(data[k as keyof typeof data] ?? {}).length === 0);
  // Only the dynamic-configuration sections; the answer may carry bookkeeping fields too.
  const http = data
    ? Object.fromEntries(
        (['routers', 'services', 'middlewares', 'serversTransports'] as const)
          .filter((k) => data[k] && Object.keys(data[k] ?? {}).length)
          .map((k) => [k, data[k]]),
      )
    : null;
  const text = http ? (format === 'yaml' ? toYaml({ http }) : JSON.stringify({ http }, null, 2)) : '';
  const routers = Object.entries(data?.routers ?? {}) as [string, { rule?: string; entryPoints?: string[]; middlewares?: string[] }][];
  return (
    <div className="stack">
      {data?.problems?.length ? (
        <Alert tone="danger" title={t('config.problemsTitle')}>
          <ul style={{ margin: '4px 0 0', paddingLeft: 18 }}>
            {data.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {data?.warnings?.map((w) => (
        <Alert key={w.code} tone="warning" title={w.code === 'default_certificate' ? t('warnings.defaultCertificate') : t('warnings.https')}>
          {w.message}
        </Alert>
      ))}
      {data && data.enabled === false ? (
        <Alert tone="info" title={t('config.disabledTitle')}>
          {t('config.disabledBody')}
        </Alert>
      ) : null}
      {routers.length ? (
        <div className="grid-2">
          {routers.map(([name, r]) => (
            <Card key={name}>
              <div className="card-body stack-sm">
                <div className="row-between">
                  <strong className="mono small truncate">{name}</strong>
                  <span className="badge badge-primary">{t('config.router')}</span>
                </div>
                <div className="rule-preview">{r.rule ?? '—'}</div>
                <dl className="kv small">
                  <dt>{t('config.entrypoints')}</dt>
                  <dd className="mono">{r.entryPoints?.join(', ') || t('config.defaults')}</dd>
                  <dt>{t('config.middlewares')}</dt>
                  <dd className="mono">{r.middlewares?.join(', ') || t('config.none')}</dd>
                </dl>
              </div>
            </Card>
          ))}
        </div>
      ) : null}
      <Card>
        <CardHeader
          title={t('config.title')}
          description={t('config.description')}
          actions={text ? <CopyButton text={text} /> : null}
        />
        <div className="card-body">
          <Tabs
            label={t('config.format')}
            value={format}
            onChange={setFormat}
            tabs={[
              { id: 'yaml', label: 'YAML' },
              { id: 'json', label: 'JSON' },
            ]}
          />
          {preview.isPending ? (
            <LoadingRows />
          ) : preview.isError ? (
            <ErrorState error={preview.error} onRetry={() => preview.refetch()} />
          ) : empty ? (
            <EmptyState icon="power" title={t('config.emptyTitle')}>
              {t('config.emptyBody')}
            </EmptyState>
          ) : (
            <pre className="code-block" tabIndex={0} aria-label={t('config.previewLabel')} data-testid="config-preview">
              {text}
            </pre>
          )}
        </div>
      </Card>
    </div>
  );
}
