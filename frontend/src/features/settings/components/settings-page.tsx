import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/ui/card';
import { ReadOnlyNote } from '@/components/ui/read-only';
import { useCanWrite } from '@/lib/api/system';
import { AdminSecuritySettings } from './admin-security-settings';
import { GeneralSettings } from './general-settings';
import { PanelSignIn } from './panel-sign-in';
import { PortalSettings } from './portal-settings';
import { SsoSettings } from './sso-settings';

export function SettingsPage() {
  const { t } = useTranslation('settings');
  const canWrite = useCanWrite();
  return (
    <>
      <PageHeader title={t('page.title')} description={t('page.description')} />
      <div className="stack" style={{ gap: 24 }}>
        {canWrite ? null : <ReadOnlyNote />}
        <GeneralSettings />
        <PanelSignIn />
        <PortalSettings />
        <SsoSettings />
        <AdminSecuritySettings />
      </div>
    </>
  );
}
