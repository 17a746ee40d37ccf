import { Badge } from '@/components/ui/badge';
import type { Protection } from '@/lib/api-types';

const labels = { basicAuth: 'Basic auth', sso: 'SSO', sharedLinks: 'Shared links', tokens: 'Machine tokens' } as const;

/** The protections a service has switched on, by name. */
export function protectionNames(p?: Protection): string[] {
  return (Object.keys(labels) as (keyof typeof labels)[]).filter((k) => p?.[k]).map((k) => labels[k]);
}

/**
 * Says, in words, when a protected service's access rules let people in without signing in: the
 * server computes the exposure from the global and the service's rules, so nothing is guessed here.
 * Unprotected services say "public" elsewhere; a protected one that asks everyone shows nothing.
 */
export function ExposureBadge({ protection }: { protection?: Protection }) {
  const names = protectionNames(protection);
  if (!names.length) return null;
  if (protection?.exposure === 'everyone') {
    return (
      <Badge tone="danger" icon="alert" title={`Access rules let every request through without signing in: ${names.join(', ')} not asked for`}>
        Public: rules allow everyone
      </Badge>
    );
  }
  if (protection?.exposure === 'some') {
    return (
      <Badge tone="warning" icon="eye" title="Access rules let some requests through without signing in">
        Partly public
      </Badge>
    );
  }
  return null;
}
