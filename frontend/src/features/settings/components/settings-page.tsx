import { PageHeader } from '@/components/ui/card';
import { AdminSecuritySettings } from './admin-security-settings';
import { GeneralSettings } from './general-settings';
import { SsoSettings } from './sso-settings';

export function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Panel-wide defaults and the identity provider for single sign-on." />
      <div className="stack" style={{ gap: 24 }}>
        <GeneralSettings />
        <SsoSettings />
        <AdminSecuritySettings />
      </div>
    </>
  );
}
