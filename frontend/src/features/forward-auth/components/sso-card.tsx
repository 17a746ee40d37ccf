import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import { ReadOnlyFieldset } from '@/components/ui/read-only';
import { TagInput } from '@/components/ui/tag-input';
import type { SecurityConfig } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { useSaveSecurityConfig, useSsoProvider } from '../api/security';
import { userEntryError } from './user-entry';

type Sso = Extract<SecurityConfig, { type: 'sso' }>;

/** Says which claim of the provider each kind of entry is compared with. */
function UserEntriesHint() {
  return (
    <ul>
      <li>
        <code>sub:&lt;subject&gt;</code>: the provider&apos;s subject (<code>sub</code> claim), which never changes. The safest choice.
      </li>
      <li>
        An e-mail address: the <code>email</code> claim, only when the provider marks it verified (<code>email_verified</code>).
      </li>
      <li>
        Any other word: the <code>preferred_username</code> claim (some providers let people change it) or the subject.
      </li>
    </ul>
  );
}

export function SsoCard({ serviceId, config }: { serviceId: string; config?: Sso }) {
  const provider = useSsoProvider();
  const canWrite = useCanWrite();
  const save = useSaveSecurityConfig(serviceId);
  const [enabled, setEnabled] = useState(config?.enabled ?? false);
  const [users, setUsers] = useState<string[]>(config?.users ?? []);
  const [groups, setGroups] = useState<string[]>(config?.groups ?? []);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const key = JSON.stringify(config ?? null);
  useEffect(() => {
    setEnabled(config?.enabled ?? false);
    setUsers(config?.users ?? []);
    setGroups(config?.groups ?? []);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const dirty = JSON.stringify({ e: enabled, u: users, g: groups }) !== JSON.stringify({ e: config?.enabled ?? false, u: config?.users ?? [], g: config?.groups ?? [] });

  const submit = async () => {
    setErrors({});
    try {
      await save.mutateAsync({ type: 'sso', enabled, users, groups });
    } catch (e) {
      const next: Record<string, string> = {};
      applyServerErrors(e, (p, err) => {
        next[String(p).split('.')[0]!] = err.message ?? 'Invalid';
      });
      setErrors(next);
    }
  };
  return (
    <Card>
      <CardHeader
        title="Single sign-on"
        description="Visitors sign in with your identity provider. Allow specific people or groups; empty lists allow every signed-in user."
        actions={config?.enabled ? <Badge tone="success" icon="users">On</Badge> : <Badge icon="power">Off</Badge>}
      />
      <ReadOnlyFieldset readOnly={!canWrite} className="card-body stack">
        {canWrite && provider.data && !provider.data.enabled ? (
          <Alert tone="info" title="No identity provider yet">
            Configure OIDC under <Link to="/settings">Settings</Link> before turning this on.
          </Alert>
        ) : null}
        <Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} label="Require single sign-on" />
        <Field label="Allowed users" optional error={errors.users} hint={<UserEntriesHint />}>
          <TagInput value={users} onChange={setUsers} placeholder="sub:248289761001 or alice@example.com" validate={userEntryError} />
        </Field>
        <Field label="Allowed groups" optional error={errors.groups}>
          <TagInput value={groups} onChange={setGroups} placeholder="admins" />
        </Field>
      </ReadOnlyFieldset>
      {canWrite ? (
        <div className="card-footer">
          <Button variant="primary" onClick={submit} loading={save.isPending} disabled={!dirty}>
            Save single sign-on
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
