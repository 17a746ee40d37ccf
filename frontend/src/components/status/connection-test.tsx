import { useMutation } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { api } from '@/lib/api-client';
import type { ProxyConnectionCheck } from '@/lib/api-types';

const itemTitle: Record<ProxyConnectionCheck['items'][number]['name'], string> = {
  provider: 'Configuration',
  api: "Traefik's API",
  metrics: 'Metrics',
};
const tone = { ok: 'success', warning: 'warning', failed: 'danger' } as const;
const icon = { ok: 'checkCircle', warning: 'alert', failed: 'xCircle' } as const;

/** The answer of GET /api/proxy/status/check: one line per part, what to do, the cause folded away. */
export function ConnectionResult({ check }: { check: ProxyConnectionCheck }) {
  return (
    <Alert tone={tone[check.state]} title={check.summary}>
      <ul className="check-list" data-testid="connection-check" data-state={check.state}>
        {check.items.map((it) => (
          <li key={it.name} data-state={it.state}>
            <Icon name={icon[it.state]} size={16} />
            <div>
              <strong>{itemTitle[it.name]}:</strong> {it.answer}
              {it.hint ? <div className="small">{it.hint}</div> : null}
              {it.detail ? (
                <details className="small muted">
                  <summary>Details</summary>
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
  const test = useMutation({
    mutationFn: () => api.get('/api/proxy/status/check'),
    meta: { quiet: true },
  });
  return (
    <div className="stack-sm">
      <div>
        <Button icon="refresh" loading={test.isPending} onClick={() => test.mutate()}>
          {test.data ? 'Test again' : 'Test Traefik connection'}
        </Button>
      </div>
      {test.data ? <ConnectionResult check={test.data} /> : null}
      {test.isError ? (
        <Alert tone="danger" title="The panel did not answer the test">
          Reload the page and try again.
        </Alert>
      ) : null}
    </div>
  );
}
