import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { Toaster } from '@/components/ui/toaster';
import { setTwoFactorRequiredHandler, setUnauthorizedHandler } from '@/lib/api-client';
import { getSystem } from '@/lib/api/system';
import { createQueryClient } from '@/lib/query-client';
import { qk } from '@/lib/query-keys';
import { createAppRouter } from './router';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);

  useEffect(() => {
    // The one place a 401 is handled: drop cached data and go to setup or sign-in.
    let redirecting = false;
    setUnauthorizedHandler(() => {
      if (redirecting) return;
      redirecting = true;
      const here = router.state.location;
      const next = encodeURIComponent(here.pathname + here.search);
      void queryClient.cancelQueries();
      getSystem()
        .catch(() => null)
        .then((sys) => {
          if (sys) queryClient.setQueryData(qk.system(), sys);
          const target = sys?.setupRequired ? '/setup' : here.pathname === '/login' ? null : `/login?next=${next}`;
          if (target) return router.navigate(target, { replace: true });
        })
        .finally(() => {
          redirecting = false;
        });
    });
    // The panel requires a second factor and this administrator has none: enrolment first.
    setTwoFactorRequiredHandler(() => {
      if (router.state.location.pathname !== '/account') void router.navigate('/account', { replace: true });
    });
    return () => {
      setUnauthorizedHandler(null);
      setTwoFactorRequiredHandler(null);
    };
  }, [queryClient, router]);

  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>
  );
}
