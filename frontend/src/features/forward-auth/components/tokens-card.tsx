import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import type { SecurityConfig } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { useSaveSecurityConfig } from '../api/security';

type Tokens = Extract<SecurityConfig, { type: 'tokens' }>;

export function TokensCard({ serviceId, config }: { serviceId: string; config?: Tokens }) {
  const save = useSaveSecurityConfig(serviceId);
  const canWrite = useCanWrite();
  const [enabled, setEnabled] = useState(config?.enabled ?? false);
  const [header, setHeader] = useState(config?.header ?? '');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    setEnabled(config?.enabled ?? false);
    setHeader(config?.header ?? '');
  }, [config?.enabled, config?.header]);
  const dirty = enabled !== (config?.enabled ?? false) || header.trim() !== (config?.header ?? '');

  const submit = async () => {
    setError(undefined);
    const h = header.trim();
    if (h && !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(h)) return setError('Not a valid header name');
    try {
      await save.mutateAsync({ type: 'tokens', enabled, ...(h ? { header: h } : {}) });
    } catch (e) {
      applyServerErrors(e, (_p, err) => setError(err.message ?? 'Invalid'));
    }
  };
  return (
    <Card>
      <CardHeader
        title="Machine tokens"
        description={
          <>
            Programs send a <Link to="/machine-tokens">machine token</Link> made for this service instead of signing in.
          </>
        }
        actions={config?.enabled ? <Badge tone="success" icon="terminal">On</Badge> : <Badge icon="power">Off</Badge>}
      />
      <div className="card-body stack">
        <Switch checked={enabled} disabled={!canWrite} onChange={(e) => setEnabled(e.target.checked)} label="Accept machine tokens" />
        <Field
          label="Token header"
          optional
          error={error}
          hint="A request header your clients put the token in, such as X-Api-Key. Authorization: Bearer and the basic-auth password are always accepted; a query parameter never is."
        >
          <input className="input mono" placeholder="X-Api-Key" value={header} onChange={(e) => setHeader(e.target.value)} disabled={!canWrite || !enabled} autoCapitalize="off" spellCheck={false} />
        </Field>
      </div>
      {canWrite ? (
        <div className="card-footer">
          <ButtonLink to={`/machine-tokens?new=${encodeURIComponent(serviceId)}`} variant="ghost" icon="plus">
            New token for this service
          </ButtonLink>
          <Button variant="primary" onClick={submit} loading={save.isPending} disabled={!dirty}>
            Save machine tokens
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
