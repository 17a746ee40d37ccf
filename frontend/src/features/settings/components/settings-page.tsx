import { PageHeader } from '@/components/ui/card';
import { AdminSecuritySettings } from './admin-security-settings';
import { GeneralSettings } from './general-settings';
import { PanelSignIn } from './panel-sign-in';
import { SsoSettings } from './sso-settings';

export function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Panel-wide defaults, how administrators sign in, and the identity provider for single sign-on." />
      <div className="stack" style={{ gap: 24 }}>
        <GeneralSettings />
        <PanelSignIn />
        <SsoSettings />
        <AdminSecuritySettings />
      </div>
    </>
  );
}
