import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { qk } from '@/lib/query-keys';

export function useCluster() {
  // Replicas come and go, and the lead moves within seconds: refresh now and then.
  return useQuery({ queryKey: qk.cluster(), queryFn: () => api.get('/api/cluster'), refetchInterval: 15_000 });
}
