import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { CopyButton } from '@/components/ui/copy-button';
import { Tabs } from '@/components/ui/tabs';
import type { TraefikSetupGuide } from '@/lib/api-types';

const titles = {
  docker: 'setupGuide.docker',
  host: 'setupGuide.host',
} as const satisfies Record<TraefikSetupGuide['variant'], string>;

/**
 * One complete traefik.yml per way of running Traefik (entrypoints, the HTTP provider at the
 * address Traefik sees, the API and metrics) and the panel's variables that go with it, with
 * the server's warnings about addresses Traefik cannot reach.
 */
export function SetupGuide({ setups }: { setups: TraefikSetupGuide[] }) {
  const { t } = useTranslation(['components', 'common']);
  const [variant, setVariant] = useState<TraefikSetupGuide['variant']>('docker');
  const s = setups.find((x) => x.variant === variant) ?? setups[0];
  if (!s) return null;
  return (
    <div className="stack-sm" data-testid="setup-guide">
      <Tabs label={t('setupGuide.where')} tabs={setups.map((x) => ({ id: x.variant, label: t(titles[x.variant]) }))} value={s.variant} onChange={setVariant} />
      {s.warnings.map((w) => (
        <Alert key={w} tone="warning">
          {w}
        </Alert>
      ))}
      <p className="small muted" style={{ margin: 0 }}>
        <Trans t={t} i18nKey="setupGuide.staticConfig" values={{ url: s.providerUrl }} components={{ code: <code /> }} />
      </p>
      <pre className="code-block" data-testid="setup-provider-snippet">
        {s.traefikYml}
      </pre>
      <div>
        <CopyButton text={s.traefikYml} label={t('setupGuide.copyYml')} />
      </div>
      <p className="small muted" style={{ margin: 0 }}>
        <Trans t={t} i18nKey="setupGuide.env" components={{ code: <code /> }} />
      </p>
      <pre className="code-block" data-testid="setup-api-env">
        {s.env}
      </pre>
      <div>
        <CopyButton text={s.env} label={t('setupGuide.copyEnv')} />
      </div>
    </div>
  );
}
