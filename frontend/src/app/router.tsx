import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import i18n from '@/lib/i18n';
import { LoginPage } from '@/features/sign-in/components/login-page';
import { SetupPage } from '@/features/sign-in/components/setup-page';
import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { ServiceConfigPage } from '@/features/services/components/service-config-page';
import { ServiceEditPage } from '@/features/services/components/service-edit-page';
import { ServiceNewPage } from '@/features/services/components/service-new-page';
import { ServicesPage } from '@/features/services/components/services-page';
import { AppShell } from './app-shell';
import { NotFoundPage } from './not-found';
import { RequireAuth } from './require-auth';
import { RouteError } from './route-error';
import { ServiceLayout } from './service-layout';

// Less-visited pages load on demand; the shell, auth and services stay in the main bundle.
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <Outlet />,
      errorElement: <RouteError />,
      // Shown while a lazily loaded page's code arrives on a first visit.
      hydrateFallbackElement: (
        <div style={{ display: 'grid', placeItems: 'center', height: '100%' }} aria-busy="true">
          <span className="spinner" style={{ width: 24, height: 24 }} aria-label={i18n.t('app:loading')} />
        </div>
      ),
      children: [
        { path: '/setup', element: <SetupPage /> },
        { path: '/login', element: <LoginPage /> },
        { path: '/invite/:token', lazy: () => import('@/features/invitations/components/invite-page').then((m) => ({ Component: m.InvitePage })) },
        { path: '/register', lazy: () => import('@/features/invitations/components/register-page').then((m) => ({ Component: m.RegisterPage })) },
        {
          path: '/register/:token',
          lazy: () => import('@/features/invitations/components/invite-page').then((m) => ({ Component: () => <m.InvitePage registration /> })),
        },
        { path: '/forgot-password', lazy: () => import('@/features/invitations/components/forgot-password-page').then((m) => ({ Component: m.ForgotPasswordPage })) },
        { path: '/reset-password/:token', lazy: () => import('@/features/invitations/components/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage })) },
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
                { path: 'security', lazy: () => import('@/features/forward-auth/components/service-security-page').then((m) => ({ Component: m.ServiceSecurityPage })) },
                { path: 'access', lazy: () => import('@/features/access/components/service-access-page').then((m) => ({ Component: m.ServiceAccessPage })) },
                { path: 'traffic', lazy: () => import('@/features/services/components/service-traffic-page').then((m) => ({ Component: m.ServiceTrafficPage })) },
              ],
            },
            { path: 'containers', lazy: () => import('@/features/containers/components/containers-page').then((m) => ({ Component: m.ContainersPage })) },
            { path: 'domains', lazy: () => import('@/features/domains/components/domains-page').then((m) => ({ Component: m.DomainsPage })) },
            { path: 'credential-sets', lazy: () => import('@/features/forward-auth/components/credential-sets-page').then((m) => ({ Component: m.CredentialSetsPage })) },
            { path: 'sessions', lazy: () => import('@/features/forward-auth/components/sessions-page').then((m) => ({ Component: m.SessionsPage })) },
            { path: 'access-rules', lazy: () => import('@/features/access/components/global-rules-page').then((m) => ({ Component: m.GlobalRulesPage })) },
            { path: 'access-log', lazy: () => import('@/features/access/components/access-log-page').then((m) => ({ Component: m.AccessLogPage })) },
            { path: 'machine-tokens', lazy: () => import('@/features/forward-auth/components/machine-tokens-page').then((m) => ({ Component: m.MachineTokensPage })) },
            { path: 'apps', lazy: () => import('@/features/oidc-clients/components/clients-page').then((m) => ({ Component: m.ClientsPage })) },
            { path: 'account', lazy: () => import('@/features/account/components/account-page').then((m) => ({ Component: m.AccountPage })) },
            { path: 'audit', lazy: () => import('@/features/audit/components/audit-page').then((m) => ({ Component: m.AuditPage })) },
            { path: 'notifications', lazy: () => import('@/features/notifications/components/notifications-page').then((m) => ({ Component: m.NotificationsPage })) },
            { path: 'alerts', lazy: () => import('@/features/alerts/components/alerts-page').then((m) => ({ Component: m.AlertsPage })) },
            { path: 'backups', lazy: () => import('@/features/backups/components/backups-page').then((m) => ({ Component: m.BackupsPage })) },
            { path: 'people', lazy: () => import('@/features/people/components/people-page').then((m) => ({ Component: m.PeoplePage })) },
            { path: 'groups', lazy: () => import('@/features/people/components/groups-page').then((m) => ({ Component: m.GroupsPage })) },
            { path: 'admins', element: <Navigate to="/people" replace /> },
            { path: 'api-tokens', lazy: () => import('@/features/admin/components/api-tokens-page').then((m) => ({ Component: m.ApiTokensPage })) },
            { path: 'system', lazy: () => import('@/features/system/components/system-page').then((m) => ({ Component: m.SystemPage })) },
            { path: 'settings', lazy: () => import('@/features/settings/components/settings-page').then((m) => ({ Component: m.SettingsPage })) },
            { path: 'transfer', lazy: () => import('@/features/transfer/components/transfer-page').then((m) => ({ Component: m.TransferPage })) },
            { path: 'managed', lazy: () => import('@/features/managed/components/managed-page').then((m) => ({ Component: m.ManagedPage })) },
            { path: 'runtime', lazy: () => import('@/features/runtime/components/runtime-page').then((m) => ({ Component: m.RuntimePage })) },
            { path: 'traefik-metrics', lazy: () => import('@/features/runtime/components/metrics-page').then((m) => ({ Component: m.MetricsPage })) },
            { path: 'conflicts', lazy: () => import('@/features/runtime/components/conflicts-page').then((m) => ({ Component: m.ConflictsPage })) },
            { path: 'certificates', lazy: () => import('@/features/runtime/components/certificates-page').then((m) => ({ Component: m.CertificatesPage })) },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ]);
}
