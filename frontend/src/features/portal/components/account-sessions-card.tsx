import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('portal');
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
        title={t('sessions.title')}
        description={t('sessions.description')}
        actions={
          <Button variant="danger" size="sm" icon="logout" onClick={() => setEverywhere(true)}>
            {t('sessions.signOutEverywhere')}
          </Button>
        }
      />
      {sessions.isError ? (
        <div className="card-body">
          <ErrorState error={sessions.error} onRetry={() => sessions.refetch()} title={t('accountPage.listLoadFailed')} />
        </div>
      ) : sessions.isPending ? (
        <LoadingRows rows={2} />
      ) : (
        <ul className="account-list" aria-label={t('sessions.listLabel')}>
          {devices.map((s) => {
            const opened = bySignIn.get(s.id) ?? [];
            return (
              <li key={s.id} className="account-item account-device" aria-label={s.current ? t('sessions.deviceCurrent', { device: name(s) }) : name(s)}>
                <div className="account-item-head">
                  <span>
                    <strong title={s.userAgent || undefined}>{name(s)}</strong>{' '}
                    {s.current ? (
                      <Badge tone="success" icon="check">
                        {t('sessions.thisDevice')}
                      </Badge>
                    ) : null}
                    <span className="muted small account-meta">
                      {[
                        t('sessions.signedIn', { date: formatDateTime(s.createdAt) }),
                        s.current ? t('sessions.activeNow') : t('sessions.lastActive', { ago: formatRelative(s.lastSeenAt, now) }),
                        s.address ? t('sessions.from', { address: s.address }) : null,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </span>
                  </span>
                  <Button size="sm" variant="ghost" icon="logout" onClick={() => setDevice(s)} aria-label={s.current ? t('sessions.signOutDeviceCurrent', { device: name(s) }) : t('sessions.signOutDevice', { device: name(s) })}
                  >
                    {t('sessions.signOut')}
                  </Button>
                </div>
                {opened.length ? (
                  <ul className="account-sub" aria-label={t('sessions.servicesOn', { device: name(s) })}>
                    {opened.map((o) => (
                      <li key={o.id}>
                        <span>
                          {o.serviceName} <span className="muted small">· {t('sessions.lastUsed', { ago: formatRelative(o.lastSeenAt, now) })}</span>
                        </span>
                        <Button size="sm" variant="ghost" onClick={() => setService(o)} aria-label={t('sessions.signOutService', { service: o.serviceName, device: name(s) })}
                        >
                          {t('sessions.signOut')}
                        </Button>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="muted small account-sub-empty">{t('sessions.noServices')}</p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={!!device}
        title={device?.current ? t('sessions.deviceTitleCurrent') : t('sessions.deviceTitleOther')}
        message={
          device?.current
            ? t('sessions.deviceMessageCurrent')
            : device
              ? t('sessions.deviceMessageOther', { device: name(device) })
              : t('sessions.deviceMessageUnknown')
        }
        confirmLabel={t('sessions.signOut')}
        danger
        loading={endDevice.isPending}
        onCancel={() => setDevice(null)}
        onConfirm={() => device && signOutDevice(device)}
      />
      <ConfirmDialog
        open={!!service}
        title={service ? t('sessions.serviceTitle', { service: service.serviceName }) : t('sessions.serviceTitleUnnamed')}
        message={t('sessions.serviceMessage')}
        confirmLabel={t('sessions.signOut')}
        loading={endService.isPending}
        onCancel={() => setService(null)}
        onConfirm={() => service && endService.mutate(service.id, { onSettled: () => setService(null) })}
      />
      <ConfirmDialog
        open={everywhere}
        title={t('sessions.everywhereTitle')}
        message={t('sessions.everywhereMessage')}
        confirmLabel={t('sessions.signOutEverywhere')}
        danger
        loading={logout.isPending}
        onCancel={() => setEverywhere(false)}
        onConfirm={() => void signOutEverywhere()}
      />
    </Card>
  );
}
