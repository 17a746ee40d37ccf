import { Card, CardHeader } from '@/components/ui/card';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { Switch } from '@/components/ui/switch';
import { isApiError } from '@/lib/api-client';
import { useAdminSecurity, useSaveAdminSecurity } from '../api/admin-security';

/** The panel-wide sign-in policy; only the admin role may read or change it. */
export function AdminSecuritySettings() {
  const security = useAdminSecurity();
  const save = useSaveAdminSecurity();
  if (security.isError && isApiError(security.error) && security.error.status === 403) return null;
  return (
    <Card>
      <CardHeader title="Sign-in security" description="How administrators sign in to this panel." />
      <div className="card-body stack">
        {security.isError ? (
          <ErrorState error={security.error} onRetry={() => security.refetch()} />
        ) : security.isPending ? (
          <LoadingRows rows={1} />
        ) : (
          <>
            <Switch
              label="Require two-factor sign-in for every administrator"
              checked={save.isPending ? !!save.variables?.requireTwoFactor : security.data.requireTwoFactor}
              disabled={save.isPending}
              onChange={(e) => save.mutate({ requireTwoFactor: e.target.checked })}
            />
            <p className="muted small">
              Administrators without an authenticator app or a passkey can only set one up (on their Account page) until
              they have. A lost factor is reset with <code>gatehouse admin reset-2fa -username NAME</code>.
            </p>
          </>
        )}
      </div>
    </Card>
  );
}
