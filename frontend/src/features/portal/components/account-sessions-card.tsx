import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/modal';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import type { AdminSession } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import { describeUserAgent } from '@/lib/user-agent';
import { useEndPortalSession, useEndServiceSession, usePortalSessions, useServiceSessions } from '../api/account';
import { usePortalLogout } from '../api/portal';

type ServiceSession = { id: string; serviceName: string; portalSessionId: string; lastSeenAt: string };

/** Groups the service sessions under the sign-in they were opened from. */
export function servicesBySignIn(services: ServiceSession[]): Map<string, ServiceSession[]> {
  const out = new Map<string, ServiceSession[]>();
  for (const s of services) {
    const list = out.get(s.portalSessionId) ?? [];
    list.push(s);
    out.set(s.portalSessionId, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.serviceName.localeCompare(b.serviceName));
  return out;
}

/**
 * Where the person is signed in: each device or browser, the services opened
 * from it, and signing out of any of them, or everywhere at once.
 */
export function SessionsCard() {
  const sessions = usePortalSessions();
  const services = useServiceSessions();
  const endDevice = useEndPortalSession();
  const endService = useEndServiceSession();
  const logout = usePortalLogout();
  const navigate = useNavigate();
  const now = useNow(30_000);
  const [device, setDevice] = useState<AdminSession | null>(null);
  const [service, setService] = useState<ServiceSession | null>(null);
  const [everywhere, setEverywhere] = useState(false);

  const devices = [...(sessions.data ?? [])].sort((a, b) => Number(b.current) - Number(a.current));
  const bySignIn = servicesBySignIn(services.data ?? []);
  const name = (s: AdminSession) => describeUserAgent(s.userAgent);

  const signOutDevice = (s: AdminSession) =>
    endDevice.mutate(s.id, {
      onSettled: () => setDevice(null),
      // Signing out this device is signing out here.
      onSuccess: () => (s.current ? navigate('/login', { replace: true }) : undefined),
    });
  const signOutEverywhere = async () => {
    try {
      await logout.mutateAsync(true);
    } finally {
      setEverywhere(false);
      navigate('/login', { replace: true });
    }
  };

  return (
    <Card>
      <CardHeader
        title="Where you're signed in"
        description="Each device or browser where you signed in, and the services you opened from it. Signing out a device also signs it out of those services."
        actions={
          <Button variant="danger" size="sm" icon="logout" onClick={() => setEverywhere(true)}>
            Sign out everywhere
          </Button>
        }
      />
      {sessions.isError ? (
        <div className="card-body">
          <ErrorState error={sessions.error} onRetry={() => sessions.refetch()} title="This list could not be loaded" />
        </div>
      ) : sessions.isPending ? (
        <LoadingRows rows={2} />
      ) : (
        <ul className="account-list" aria-label="Your devices">
          {devices.map((s) => {
            const opened = bySignIn.get(s.id) ?? [];
            return (
              <li key={s.id} className="account-item account-device" aria-label={name(s) + (s.current ? ' (this device)' : '')}>
                <div className="account-item-head">
                  <span>
                    <strong title={s.userAgent || undefined}>{name(s)}</strong>{' '}
                    {s.current ? (
                      <Badge tone="success" icon="check">
                        This device
                      </Badge>
                    ) : null}
                    <span className="muted small account-meta">
                      Signed in {formatDateTime(s.createdAt)} · {s.current ? 'active now' : `last active ${formatRelative(s.lastSeenAt, now)}`}
                      {s.address ? ` · from ${s.address}` : ''}
                    </span>
                  </span>
                  <Button size="sm" variant="ghost" icon="logout" onClick={() => setDevice(s)} aria-label={`Sign out ${name(s)}${s.current ? ' (this device)' : ''}`}>
                    Sign out
                  </Button>
                </div>
                {opened.length ? (
                  <ul className="account-sub" aria-label={`Services opened on ${name(s)}`}>
                    {opened.map((o) => (
                      <li key={o.id}>
                        <span>
                          {o.serviceName} <span className="muted small">· last used {formatRelative(o.lastSeenAt, now)}</span>
                        </span>
                        <Button size="sm" variant="ghost" onClick={() => setService(o)} aria-label={`Sign out of ${o.serviceName} on ${name(s)}`}>
                          Sign out
                        </Button>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="muted small account-sub-empty">No services opened from this sign-in.</p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={!!device}
        title={device?.current ? 'Sign out on this device?' : 'Sign out that device?'}
        message={
          device?.current
            ? 'You will be signed out here, and of every service you opened from here.'
            : `${device ? name(device) : 'That device'} will be signed out, and of every service opened from it.`
        }
        confirmLabel="Sign out"
        danger
        loading={endDevice.isPending}
        onCancel={() => setDevice(null)}
        onConfirm={() => device && signOutDevice(device)}
      />
      <ConfirmDialog
        open={!!service}
        title={`Sign out of ${service?.serviceName ?? 'this service'}?`}
        message="You stay signed in here. The next time you open it, it lets you in again without a password."
        confirmLabel="Sign out"
        loading={endService.isPending}
        onCancel={() => setService(null)}
        onConfirm={() => service && endService.mutate(service.id, { onSettled: () => setService(null) })}
      />
      <ConfirmDialog
        open={everywhere}
        title="Sign out everywhere?"
        message="You will be signed out on every device, this one included, and of every service. You will need to sign in again."
        confirmLabel="Sign out everywhere"
        danger
        loading={logout.isPending}
        onCancel={() => setEverywhere(false)}
        onConfirm={() => void signOutEverywhere()}
      />
    </Card>
  );
}
