import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Card, CardHeader } from '@/components/ui/card';
import { AdminOnlyNote, isRoleRefusal } from '@/components/ui/read-only';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { Switch } from '@/components/ui/switch';
import { useCanWrite } from '@/lib/api/system';
import { useAdminSecurity, useSaveAdminSecurity } from '../api/admin-security';

/** The panel-wide sign-in policy; only the admin role may read or change it. */
export function AdminSecuritySettings() {
  const { t } = useTranslation('settings');
  const security = useAdminSecurity();
  const save = useSaveAdminSecurity();
  const canWrite = useCanWrite();
  const [asked, setAsked] = useState<boolean | null>(null);
  // The server keeps the policy to the admin role: a viewer is told so, calmly.
  if (security.isError && isRoleRefusal(security.error)) return <AdminOnlyNote title={t('security.title')} />;
  return (
    <Card>
      <CardHeader title={t('security.title')} description={t('security.description')} />
      <div className="card-body stack">
        {security.isError ? (
          <ErrorState error={security.error} onRetry={() => security.refetch()} />
        ) : security.isPending ? (
          <LoadingRows rows={1} />
        ) : (
          <>
            <Switch
              label={t('security.require')}
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
              <Trans t={t} i18nKey="security.hint" components={{ code: <code /> }} />
            </p>
          </>
        )}
      </div>
    </Card>
  );
}
