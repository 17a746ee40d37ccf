import { Badge } from '@/components/ui/badge';

export function RuntimeStatusBadge({ status }: { status?: string }) {
  const s = (status ?? '').toLowerCase();
  if (s === 'enabled' || s === 'up') return <Badge tone="success" icon="check">{status}</Badge>;
  if (s === 'warning') return <Badge tone="warning" icon="alert">{status}</Badge>;
  if (s === 'disabled' || s === 'down') return <Badge tone="danger" icon="xCircle">{status}</Badge>;
  return <Badge>{status || 'unknown'}</Badge>;
}
