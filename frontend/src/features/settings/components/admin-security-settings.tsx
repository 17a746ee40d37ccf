import { useState } from 'react';
import { Card, CardHeader } from '@/components/ui/card';
import { AdminOnlyNote, isRoleRefusal } from '@/components/ui/read-only';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { Switch } from '@/components/ui/switch';
import { useCanWrite } from '@/lib/api/system';
import { useAdminSecurity, useSaveAdminSecurity } from '../api/admin-security';

/** The panel-wide sign-in policy; only the admin role may read or change it. */
export function AdminSecuritySettings() {
  const security = useAdminSecurity();
  const save = useSaveAdminSecurity();
  const canWrite = useCanWrite();
  const [asked, setAsked] = useState<boolean | null>(null);
  // The server keeps the policy to the admin role: a viewer is told so, calmly.
  if (security.isError && isRoleRefusal(security.error)) return <AdminOnlyNote title="Sign-in security" />;
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
              checked={asked ?? security.data.requireTwoFactor}
              disabled={!canWrite || save.isPending}
              onChange={(e) => {
                // Held in local state, set in the click itself: the mutation's own state arrives a
                // tick later, and a controlled checkbox would flick back meanwhile.
                setAsked(e.target.checked);
                save.mutate({ requireTwoFactor: e.target.checked }, { onSettled: () => setAsked(null) });
              }}
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
