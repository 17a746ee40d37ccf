import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { LoadingRows } from '@/components/ui/states';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useAppConsent, useAppRequest, useDeviceAnswer, useDeviceLookup } from '../api/apps';
import { samePortalPath } from '../lib/redirect';
import { PortalCard } from './portal-layout';

/** The scopes an app may ask for, in the order they are explained. */
const scopeOrder = ['openid', 'profile', 'email', 'groups', 'offline_access'] as const;
type Scope = (typeof scopeOrder)[number];

function ScopeList({ scopes }: { scopes: string[] }) {
  const { t } = useTranslation('portal');
  const known = scopeOrder.filter((s) => scopes.includes(s));
  return (
    <ul className="stack" style={{ margin: '0 0 20px', paddingLeft: 20 }}>
      {known.map((s: Scope) => (
        <li key={s}>{t(`apps.scopes.${s}`)}</li>
      ))}
    </ul>
  );
}

function AppLogo({ url }: { url: string }) {
  if (!url) return null;
  return <img src={url} alt="" width={40} height={40} style={{ objectFit: 'contain', borderRadius: 8, marginBottom: 12 }} />;
}

/** /apps/consent?id=…: an app asks to sign the person in; allowing is remembered. */
export function AppConsentPage() {
  const { t } = useTranslation('portal');
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const request = useAppRequest(id);
  const consent = useAppConsent(id);
  const [error, setError] = useState<string | null>(null);
  if (request.isPending && id !== '') {
    return (
      <PortalCard title={t('apps.consent.loading')}>
        <LoadingRows />
      </PortalCard>
    );
  }
  if (!request.data) return <AppGone />;
  if (request.data.refused) return <AppRefused name={request.data.app.name} />;
  if (request.data.secondFactorMissing) return <SecondFactorMissing name={request.data.app.name} />;
  const answer = (approve: boolean) => (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    consent.mutate(approve, {
      onSuccess: (next) => window.location.assign(next.redirect),
      onError: (err) => setError(errorMessage(err)),
    });
  };
  const { app, scopes } = request.data;
  return (
    <PortalCard title={t('apps.consent.title', { app: app.name })} subtitle={t('apps.consent.subtitle', { app: app.name })}>
      <AppLogo url={app.logoUrl} />
      {error ? (
        <Alert tone="danger" title={t('apps.consent.failed')}>
          {error}
        </Alert>
      ) : null}
      <ScopeList scopes={scopes} />
      <p className="muted">{t('apps.consent.remembered')}</p>
      <div className="row" style={{ gap: 8, marginTop: 16 }}>
        <Button variant="primary" onClick={answer(true)} loading={consent.isPending && consent.variables === true} autoFocus>
          {t('apps.consent.allow')}
        </Button>
        <Button onClick={answer(false)} loading={consent.isPending && consent.variables === false}>
          {t('apps.consent.deny')}
        </Button>
      </div>
    </PortalCard>
  );
}

function AppGone() {
  const { t } = useTranslation('portal');
  return (
    <PortalCard title={t('apps.gone.title')} subtitle={t('apps.gone.text')}>
      <Link to="/">{t('apps.backToServices')}</Link>
    </PortalCard>
  );
}

function AppRefused({ name }: { name: string }) {
  const { t } = useTranslation('portal');
  return (
    <PortalCard title={t('apps.refused.title', { app: name })}>
      <Alert tone="warning" title={t('apps.refused.why')}>
        {t('apps.refused.text', { app: name })}
      </Alert>
      <p style={{ marginTop: 16 }}>
        <Link to="/">{t('apps.backToServices')}</Link>
      </p>
    </PortalCard>
  );
}

/** The app asks for a second factor and the person has none: they add one on their account page first. */
function SecondFactorMissing({ name }: { name: string }) {
  const { t } = useTranslation('portal');
  return (
    <PortalCard title={t('apps.secondFactor.title', { app: name })}>
      <p>{t('apps.secondFactor.text', { app: name })}</p>
      <div className="row" style={{ gap: 16, marginTop: 16, alignItems: 'center' }}>
        <Link className="btn btn-primary" to="/account">
          {t('apps.secondFactor.account')}
        </Link>
        <Link to="/">{t('apps.backToServices')}</Link>
      </div>
    </PortalCard>
  );
}

/**
 * /apps/refused?id=…: the person is not in a group the app admits, or the app asks for a second
 * factor they have not set up (or the sign-in expired).
 */
export function AppRefusedPage() {
  const { t } = useTranslation('portal');
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const request = useAppRequest(id);
  if (id !== '' && request.isPending) {
    return (
      <PortalCard title={t('apps.consent.loading')}>
        <LoadingRows />
      </PortalCard>
    );
  }
  if (!request.data) return <AppGone />;
  // A group refusal wins: adding a second factor would not let the person in.
  if (!request.data.refused && request.data.secondFactorMissing) return <SecondFactorMissing name={request.data.app.name} />;
  return <AppRefused name={request.data.app.name} />;
}

/** /apps/device?user_code=…: the person types the code a device shows, then allows it. */
export function DevicePage() {
  const { t } = useTranslation('portal');
  const [params] = useSearchParams();
  const [typed, setTyped] = useState(params.get('user_code') ?? '');
  const [code, setCode] = useState(params.get('user_code') ?? '');
  const lookup = useDeviceLookup(code);
  const answer = useDeviceAnswer();
  const [error, setError] = useState<string | null>(null);

  if (answer.isSuccess) {
    const ok = answer.data.approved;
    return (
      <PortalCard title={ok ? t('apps.device.doneTitle') : t('apps.device.deniedTitle')}>
        <p>{ok ? t('apps.device.doneText') : t('apps.device.deniedText')}</p>
        <Link to="/">{t('apps.backToServices')}</Link>
      </PortalCard>
    );
  }
  const find = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setCode(typed.trim());
  };
  const reply = (approve: boolean) => () => {
    setError(null);
    answer.mutate({ userCode: code, approve }, { onError: (err) => setError(errorMessage(err)) });
  };
  const notFound = lookup.isError && isApiError(lookup.error) && lookup.error.status === 422;
  if (lookup.data?.secondFactorMissing) return <SecondFactorMissing name={lookup.data.app.name} />;
  // Only a path on this portal: the API's answer never sends the browser elsewhere.
  const again = lookup.data ? samePortalPath(lookup.data.signInAgain, window.location.origin) : null;
  if (lookup.data && again) {
    const name = lookup.data.app.name;
    return (
      <PortalCard title={t('apps.device.signInAgainTitle', { app: name })}>
        <AppLogo url={lookup.data.app.logoUrl} />
        <p>{t('apps.device.signInAgainText', { app: name })}</p>
        <div className="row" style={{ gap: 16, marginTop: 16, alignItems: 'center' }}>
          <Button variant="primary" onClick={() => window.location.assign(again)} autoFocus>
            {t('apps.device.signInAgain')}
          </Button>
          <Link to="/">{t('apps.backToServices')}</Link>
        </div>
      </PortalCard>
    );
  }
  if (lookup.data) {
    return (
      <PortalCard title={t('apps.device.confirmTitle', { app: lookup.data.app.name })} subtitle={t('apps.device.confirmSubtitle')}>
        <AppLogo url={lookup.data.app.logoUrl} />
        {error ? (
          <Alert tone="danger" title={t('apps.device.failed')}>
            {error}
          </Alert>
        ) : null}
        <ScopeList scopes={lookup.data.scopes} />
        <div className="row" style={{ gap: 8 }}>
          <Button variant="primary" onClick={reply(true)} loading={answer.isPending && answer.variables?.approve === true}>
            {t('apps.consent.allow')}
          </Button>
          <Button onClick={reply(false)} loading={answer.isPending && answer.variables?.approve === false}>
            {t('apps.consent.deny')}
          </Button>
        </div>
      </PortalCard>
    );
  }
  return (
    <PortalCard title={t('apps.device.title')} subtitle={t('apps.device.subtitle')}>
      <form className="stack" onSubmit={find} noValidate>
        {notFound ? (
          <Alert tone="danger" title={t('apps.device.notFoundTitle')}>
            {t('apps.device.notFoundText')}
          </Alert>
        ) : null}
        <Field label={t('apps.device.codeLabel')}>
          <input
            className="input"
            autoComplete="one-time-code"
            autoCapitalize="characters"
            maxLength={32}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoFocus
            style={{ fontFamily: 'var(--font-mono, monospace)', letterSpacing: '0.1em' }}
          />
        </Field>
        <Button type="submit" variant="primary" className="btn-block" loading={lookup.isFetching}>
          {t('apps.device.continue')}
        </Button>
      </form>
    </PortalCard>
  );
}
