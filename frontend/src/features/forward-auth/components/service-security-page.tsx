import { useParams } from 'react-router';
import { ReadOnlyNote } from '@/components/ui/read-only';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import type { SecurityConfig } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { useSecurityConfigs } from '../api/security';
import { BasicAuthCard } from './basic-auth-card';
import { EmailCodeProtection } from './email-code-protection';
import { SharedLinksCard } from './shared-links-card';
import { SsoCard } from './sso-card';
import { TokensCard } from './tokens-card';

function pick<T extends SecurityConfig['type']>(items: SecurityConfig[], type: T) {
  return items.find((c) => c.type === type) as Extract<SecurityConfig, { type: T }> | undefined;
}

export function ServiceSecurityPage() {
  const { id = '' } = useParams();
  const configs = useSecurityConfigs(id);
  const canWrite = useCanWrite();
  if (configs.isPending) return <LoadingRows rows={6} />;
  if (configs.isError) return <ErrorState error={configs.error} onRetry={() => configs.refetch()} title="Could not load the access settings" />;
  const items = configs.data;
  return (
    <div className="stack" style={{ gap: 20 }}>
      <p className="muted">
        With any of these on, Traefik asks Gatehouse (forward auth) before each request. A visitor gets in if any enabled method admits them.
      </p>
      {canWrite ? null : <ReadOnlyNote />}
      <SharedLinksCard serviceId={id} config={pick(items, 'shared_links')} />
      <div className="grid-2" style={{ alignItems: 'start' }}>
        <SsoCard serviceId={id} config={pick(items, 'sso')} />
        <BasicAuthCard serviceId={id} config={pick(items, 'basic_auth')} />
        <TokensCard serviceId={id} config={pick(items, 'tokens')} />
        <EmailCodeProtection serviceId={id} config={pick(items, 'email_code')} />
      </div>
    </div>
  );
}
