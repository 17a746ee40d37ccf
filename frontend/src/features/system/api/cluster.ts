import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';
import { qk } from '@/lib/query-keys';

type Schemas = components['schemas'];

export type ClusterView = Schemas['ClusterView'];
export type ClusterReplica = Schemas['ClusterReplica'];

export function useCluster() {
  // Replicas come and go, and the lead moves within seconds: refresh now and then.
  return useQuery({ queryKey: qk.cluster(), queryFn: () => api.get<ClusterView>('/api/cluster'), refetchInterval: 15_000 });
}
