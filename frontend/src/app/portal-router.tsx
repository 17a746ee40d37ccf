import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useLocation } from 'react-router';
import { ErrorState } from '@/components/ui/states';
import { Toaster } from '@/components/ui/toaster';
import { isApiError, setUnauthorizedHandler } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import { useMe } from '@/lib/api/system';
import { createQueryClient } from '@/lib/query-client';
import { LauncherPage } from '@/features/portal/components/launcher-page';
import { PortalShell } from '@/features/portal/components/portal-shell';
import { PortalSignInPage } from '@/features/portal/components/portal-sign-in-page';
import { NotFoundPage } from './not-found';
import { RouteError } from './route-error';

/** The sign-in page's address that comes back here afterwards (rd is a full URL on this host). */
function signInHere(path: string): string {
  return `/login?rd=${encodeURIComponent(window.location.origin + path)}`;
}

/** Sends a visitor without a portal session to the portal's sign-in. */
function RequirePortalSession({ children }: { children: ReactNode }) {
  const { t } = useTranslation('app');
  const location = useLocation();
  const me = useMe();
  if (me.isPending) {
    return (
      <div style={{ display: 'grid', placeItems: 'center', height: '100%' }} aria-busy="true">
        <span className="spinner" style={{ width: 24, height: 24 }} aria-label={t('loading')} />
      </div>
    );
  }
  if (me.isError) {
    if (isApiError(me.error) && me.error.status === 401) return <Navigate to={signInHere(location.pathname + location.search)} replace />;
    return (
      <div style={{ maxWidth: 560, margin: '80px auto', padding: 16 }}>
        <ErrorState error={me.error} onRetry={() => me.refetch()} title={t('errors.unreachablePage')} />
      </div>
    );
  }
  return <>{children}</>;
}

/**
 * The portal's pages, the only ones the SPA shows on the portal's host: sign-in, the
 * launcher, the account, and the invitations pages beside /login.
 */
export function createPortalRouter() {
  return createBrowserRouter([
    {
      element: <Outlet />,
      errorElement: <RouteError />,
      // Shown while the account page's code arrives on a first visit.
      hydrateFallbackElement: (
        <div style={{ display: 'grid', placeItems: 'center', height: '100%' }} aria-busy="true">
          <span className="spinner" style={{ width: 24, height: 24 }} aria-label={i18n.t('app:loading')} />
        </div>
      ),
      children: [
        { path: '/login', element: <PortalSignInPage /> },
        // The invitations pages (features/invitations), as on the panel's host.
        { path: '/invite/:token', lazy: () => import('@/features/invitations/components/invite-page').then((m) => ({ Component: m.InvitePage })) },
        { path: '/register', lazy: () => import('@/features/invitations/components/register-page').then((m) => ({ Component: m.RegisterPage })) },
        {
          path: '/register/:token',
          lazy: () => import('@/features/invitations/components/invite-page').then((m) => ({ Component: () => <m.InvitePage registration /> })),
        },
        // An app's sign-in (the OpenID provider, backend/internal/oidc/provider): consent,
        // refusal and the device code, each for the person signed in here.
        ...(['consent', 'refused', 'device'] as const).map((page) => ({
          path: `/apps/${page}`,
          lazy: () =>
            import('@/features/portal/components/app-pages').then((m) => {
              const Page = { consent: m.AppConsentPage, refused: m.AppRefusedPage, device: m.DevicePage }[page];
              return {
                Component: () => (
                  <RequirePortalSession>
                    <Page />
                  </RequirePortalSession>
                ),
              };
            }),
        })),
        { path: '/forgot-password', lazy: () => import('@/features/invitations/components/forgot-password-page').then((m) => ({ Component: m.ForgotPasswordPage })) },
        { path: '/reset-password/:token', lazy: () => import('@/features/invitations/components/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage })) },
        {
          element: (
            <RequirePortalSession>
              <PortalShell />
            </RequirePortalSession>
          ),
          children: [
            { index: true, element: <LauncherPage /> },
            { path: 'account', lazy: () => import('@/features/portal/components/account-page').then((m) => ({ Component: m.PortalAccountPage })) },
          ],
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}

/** The SPA on the portal's host. */
export function PortalApp() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createPortalRouter);
  useEffect(() => {
    setUnauthorizedHandler(() => {
      const here = router.state.location;
      if (here.pathname === '/login') return;
      queryClient.clear();
      void router.navigate(signInHere(here.pathname + here.search), { replace: true });
    });
    return () => setUnauthorizedHandler(null);
  }, [queryClient, router]);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>
  );
}
