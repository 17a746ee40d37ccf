import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { qk } from '@/lib/query-keys';

/** How this panel runs; uptime moves, so it is read again now and then. */
export function useSystemInfo() {
  return useQuery({ queryKey: qk.systemInfo(), queryFn: () => api.get('/api/system/info'), refetchInterval: 60_000 });
}
