import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { CopyButton } from '@/components/ui/copy-button';
import { Tabs } from '@/components/ui/tabs';
import type { TraefikSetupGuide } from '@/lib/api-types';

const titles: Record<TraefikSetupGuide['variant'], string> = {
  docker: 'Traefik in Docker',
  host: 'Traefik on this host',
};

/**
 * One complete traefik.yml per way of running Traefik (entrypoints, the HTTP provider at the
 * address Traefik sees, the API and metrics) and the panel's variables that go with it, with
 * the server's warnings about addresses Traefik cannot reach.
 */
export function SetupGuide({ setups }: { setups: TraefikSetupGuide[] }) {
  const [variant, setVariant] = useState<TraefikSetupGuide['variant']>('docker');
  const s = setups.find((x) => x.variant === variant) ?? setups[0];
  if (!s) return null;
  return (
    <div className="stack-sm" data-testid="setup-guide">
      <Tabs label="Where Traefik runs" tabs={setups.map((x) => ({ id: x.variant, label: titles[x.variant] }))} value={s.variant} onChange={setVariant} />
      {s.warnings.map((w) => (
        <Alert key={w} tone="warning">
          {w}
        </Alert>
      ))}
      <p className="small muted" style={{ margin: 0 }}>
        Traefik's static configuration, <code>traefik.yml</code> (Traefik reaches the panel at <code>{s.providerUrl}</code>):
      </p>
      <pre className="code-block" data-testid="setup-provider-snippet">
        {s.traefikYml}
      </pre>
      <div>
        <CopyButton text={s.traefikYml} label="Copy traefik.yml" />
      </div>
      <p className="small muted" style={{ margin: 0 }}>
        The panel's environment (<code>PANEL_INTERNAL_URL</code> is how Traefik reaches the panel, for the configuration and for
        sign-in checks); set these and restart the panel:
      </p>
      <pre className="code-block" data-testid="setup-api-env">
        {s.env}
      </pre>
      <div>
        <CopyButton text={s.env} label="Copy variables" />
      </div>
    </div>
  );
}
