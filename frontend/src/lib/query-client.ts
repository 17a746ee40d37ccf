import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { errorMessage, isApiError } from './api-client';
import { fieldLabel, fieldsNeedAttention } from './form-errors';
import { dismissErrorToasts, toast } from './toast';

/** The request id of a server-side failure (5xx), the one worth quoting in a report. */
function serverRequestId(e: unknown): string | undefined {
  return isApiError(e) && e.status >= 500 && e.requestId ? e.requestId : undefined;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { quiet?: boolean };
    mutationMeta: { quiet?: boolean; success?: string };
  }
}

/**
 * The one place that turns errors into toasts. 401s are handled by the API client's
 * unauthorized handler (redirect), so they are never toasted here. A query that fails on
 * its first load shows an inline error instead; background refetch failures are toasted.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isApiError(error) && error.status === 401) return;
        if (query.meta?.quiet) return;
        if (query.state.data !== undefined) toast.error(errorMessage(error), undefined, serverRequestId(error));
      },
    }),
    mutationCache: new MutationCache({
      onSuccess: (_data, _vars, _ctx, mutation) => {
        // A write that went through makes earlier error toasts stale.
        dismissErrorToasts();
        const msg = mutation.meta?.success;
        if (msg) toast.success(msg);
      },
      onError: (error, _vars, _ctx, mutation) => {
        if (isApiError(error) && error.status === 401) return;
        if (mutation.meta?.quiet) return;
        if (isApiError(error) && error.fields.length > 0) {
          // The form's catch runs after this handler: wait for it to say whether it showed
          // every field error on its field, and toast only what it did not show.
          window.setTimeout(() => {
            if (error.fieldsShown) return;
            const detail = error.fields.map((f) => (f.field ? `${fieldLabel(f.field)}: ${f.message}` : f.message)).join(' · ');
            toast.error(fieldsNeedAttention(error.fields.length), detail);
          }, 0);
          return;
        }
        toast.error(errorMessage(error), undefined, serverRequestId(error));
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: true,
        retry: (count, error) => {
          if (isApiError(error) && error.status > 0 && error.status < 500) return false;
          return count < 1;
        },
      },
      mutations: { retry: false },
    },
  });
  return client;
}
