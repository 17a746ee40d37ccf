import { createBrowserRouter, Outlet } from 'react-router';
import { LoginPage } from '@/features/auth/components/login-page';
import { SetupPage } from '@/features/auth/components/setup-page';
import { CredentialSetsPage } from '@/features/credentials/components/credential-sets-page';
import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { DomainsPage } from '@/features/domains/components/domains-page';
import { ManagedPage } from '@/features/managed/components/managed-page';
import { CertificatesPage } from '@/features/runtime/components/certificates-page';
import { ConflictsPage } from '@/features/runtime/components/conflicts-page';
import { MetricsPage } from '@/features/runtime/components/metrics-page';
import { RuntimePage } from '@/features/runtime/components/runtime-page';
import { ServiceSecurityPage } from '@/features/security/components/service-security-page';
import { ServiceConfigPage } from '@/features/services/components/service-config-page';
import { ServiceEditPage } from '@/features/services/components/service-edit-page';
import { ServiceNewPage } from '@/features/services/components/service-new-page';
import { ServicesPage } from '@/features/services/components/services-page';
import { SessionsPage } from '@/features/sessions/components/sessions-page';
import { SettingsPage } from '@/features/settings/components/settings-page';
import { AppShell } from './app-shell';
import { NotFoundPage } from './not-found';
import { RequireAuth } from './require-auth';
import { RouteError } from './route-error';
import { ServiceLayout } from './service-layout';

export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <Outlet />,
      errorElement: <RouteError />,
      children: [
        { path: '/setup', element: <SetupPage /> },
        { path: '/login', element: <LoginPage /> },
        {
          element: (
            <RequireAuth>
              <AppShell />
            </RequireAuth>
          ),
          children: [
            { index: true, element: <DashboardPage /> },
            { path: 'services', element: <ServicesPage /> },
            { path: 'services/new', element: <ServiceNewPage /> },
            {
              path: 'services/:id',
              element: <ServiceLayout />,
              children: [
                { index: true, element: <ServiceEditPage /> },
                { path: 'config', element: <ServiceConfigPage /> },
                { path: 'security', element: <ServiceSecurityPage /> },
              ],
            },
            { path: 'domains', element: <DomainsPage /> },
            { path: 'credential-sets', element: <CredentialSetsPage /> },
            { path: 'sessions', element: <SessionsPage /> },
            { path: 'settings', element: <SettingsPage /> },
            { path: 'managed', element: <ManagedPage /> },
            { path: 'runtime', element: <RuntimePage /> },
            { path: 'metrics', element: <MetricsPage /> },
            { path: 'conflicts', element: <ConflictsPage /> },
            { path: 'certificates', element: <CertificatesPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ]);
}
