import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { qk } from '@/lib/query-keys';

/** Whether an e-mail channel is chosen to send mail to people (the codes go through it). */
export function usePeopleMailChannel() {
  return useQuery({
    queryKey: qk.notifications.settings(),
    queryFn: () => api.get('/api/notifications/settings'),
    meta: { quiet: true },
    retry: false,
  });
}
