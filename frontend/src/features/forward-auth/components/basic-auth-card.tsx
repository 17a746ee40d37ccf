import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import type { SecurityConfig } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { useCredentialSetOptions, useSaveSecurityConfig } from '../api/security';

type Basic = Extract<SecurityConfig, { type: 'basic_auth' }>;

export function BasicAuthCard({ serviceId, config }: { serviceId: string; config?: Basic }) {
  const sets = useCredentialSetOptions();
  const save = useSaveSecurityConfig(serviceId);
  const [enabled, setEnabled] = useState(config?.enabled ?? false);
  const [setId, setSetId] = useState(config?.credentialSetId ?? '');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    setEnabled(config?.enabled ?? false);
    setSetId(config?.credentialSetId ?? '');
  }, [config?.enabled, config?.credentialSetId]);
  const dirty = enabled !== (config?.enabled ?? false) || setId !== (config?.credentialSetId ?? '');

  const submit = async () => {
    setError(undefined);
    if (enabled && !setId) return setError('Pick a credential set');
    try {
      await save.mutateAsync({ type: 'basic_auth', enabled, credentialSetId: setId });
    } catch (e) {
      applyServerErrors(e, (_p, err) => setError(err.message ?? 'Invalid'));
    }
  };
  const list = sets.data ?? [];
  const canWrite = useCanWrite();
  return (
    <Card>
      <CardHeader
        title="Basic auth"
        description="The browser asks for a username and password from a credential set."
        actions={config?.enabled ? <Badge tone="success" icon="lock">On</Badge> : <Badge icon="power">Off</Badge>}
      />
      <div className="card-body stack">
        <Switch checked={enabled} disabled={!canWrite} onChange={(e) => setEnabled(e.target.checked)} label="Require basic auth" />
        <Field label="Credential set" error={error} hint={canWrite && list.length === 0 && !sets.isPending ? <>No sets yet. <Link to="/credential-sets">Create one</Link>.</> : undefined}>
          <select className="select" value={setId} onChange={(e) => setSetId(e.target.value)} disabled={!canWrite || !enabled}>
            <option value="">Choose a set…</option>
            {list.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.users.length} user{s.users.length === 1 ? '' : 's'})
              </option>
            ))}
          </select>
        </Field>
      </div>
      {canWrite ? (
        <div className="card-footer">
          <Button variant="primary" onClick={submit} loading={save.isPending} disabled={!dirty}>
            Save basic auth
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
