import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { api } from '@/lib/api-client';
import type { ProxyConnectionCheck } from '@/lib/api-types';

const itemTitle = {
  provider: 'connectionTest.items.provider',
  api: 'connectionTest.items.api',
  metrics: 'connectionTest.items.metrics',
} as const satisfies Record<ProxyConnectionCheck['items'][number]['name'], string>;
const tone = { ok: 'success', warning: 'warning', failed: 'danger' } as const;
const icon = { ok: 'checkCircle', warning: 'alert', failed: 'xCircle' } as const;

/** The answer of GET /api/proxy/status/check: one line per part, what to do, the cause folded away. */
export function ConnectionResult({ check }: { check: ProxyConnectionCheck }) {
  const { t } = useTranslation(['components', 'common']);
  return (
    <Alert tone={tone[check.state]} title={check.summary}>
      <ul className="check-list" data-testid="connection-check" data-state={check.state}>
        {check.items.map((it) => (
          <li key={it.name} data-state={it.state}>
            <Icon name={icon[it.state]} size={16} />
            <div>
              <strong>{t('connectionTest.itemLabel', { name: t(itemTitle[it.name]) })}</strong> {it.answer}
              {it.hint ? <div className="small">{it.hint}</div> : null}
              {it.detail ? (
                <details className="small muted">
                  <summary>{t('connectionTest.details')}</summary>
                  <code className="wrap">{it.detail}</code>
                </details>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </Alert>
  );
}

/** A button that asks the panel whether Traefik polls it and whether Traefik's API and metrics answer. */
export function ConnectionTest() {
  const { t } = useTranslation(['components', 'common']);
  const test = useMutation({
    mutationFn: () => api.get('/api/proxy/status/check'),
    meta: { quiet: true },
  });
  return (
    <div className="stack-sm">
      <div>
        <Button icon="refresh" loading={test.isPending} onClick={() => test.mutate()}>
          {test.data ? t('connectionTest.again') : t('connectionTest.run')}
        </Button>
      </div>
      {test.data ? <ConnectionResult check={test.data} /> : null}
      {test.isError ? (
        <Alert tone="danger" title={t('connectionTest.failed')}>
          {t('connectionTest.failedHint')}
        </Alert>
      ) : null}
    </div>
  );
}
