import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { qk } from '@/lib/query-keys';

/** The directory's people (first 200) and groups, for the people protection's pickers: id and name only. */
export function useDirectoryNames() {
  const people = useQuery({
    queryKey: [...qk.people.all(), 'names'] as const,
    queryFn: () => api.get('/api/people', { query: { limit: 200 } }).then((r) => r.items.map((p) => ({ id: p.id, name: p.username }))),
    meta: { quiet: true },
  });
  const groups = useQuery({
    queryKey: qk.people.groups(),
    queryFn: () => api.get('/api/groups').then((r) => (r.items ?? []).map((g) => ({ id: g.id, name: g.name }))),
    meta: { quiet: true },
  });
  return { people: people.data ?? [], groups: groups.data ?? [] };
}
