import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { isApiError } from '@/lib/api-client';
import type { SecondFactorMethod } from '@/lib/api-types';
import { useMe } from '@/lib/api/system';
import i18n from '@/lib/i18n';
import { passkeyErrorMessage, passkeysSupported } from '@/lib/webauthn';
import { usePortalCode, usePortalInfo, usePortalLogin, usePortalPasskey, usePortalRegistration, usePortalResetOffered } from '../api/portal';
import { safeRedirect } from '../lib/redirect';
import { PortalCard } from './portal-layout';

type Problem = { tone: 'danger' | 'warning'; title: string; text: string };

/** What was not right, by what the person gave. */
const wrong = {
  'username or password': 'signIn.wrongCredentials',
  code: 'signIn.wrongCode',
  'recovery code': 'signIn.wrongRecoveryCode',
  passkey: 'signIn.wrongPasskey',
} as const;

/** Plain words for what went wrong: a person who is not technical reads them. */
function describe(e: unknown, what: keyof typeof wrong): Problem {
  const t = i18n.getFixedT(null, 'portal');
  if (isApiError(e) && e.code === 'rate_limited') {
    const wait = e.retryAfter ? Math.max(1, Math.round(e.retryAfter / 60)) : null;
    return { tone: 'warning', title: t('signIn.tooManyTitle'), text: wait ? t('signIn.waitMinutes', { count: wait }) : t('signIn.waitFew') };
  }
  if (isApiError(e) && e.status === 403 && /disabled/.test(e.message))
    return { tone: 'danger', title: t('signIn.disabledTitle'), text: t('signIn.disabledText') };
  if (isApiError(e) && e.status === 401 && /expired/.test(e.message))
    return { tone: 'warning', title: t('signIn.expiredTitle'), text: t('signIn.expiredText') };
  if (isApiError(e) && e.status === 401) return { tone: 'danger', title: t('signIn.failedTitle'), text: t(wrong[what]) };
  if (isApiError(e)) return { tone: 'danger', title: t('signIn.failedTitle'), text: t('signIn.somethingWrong') };
  return { tone: 'danger', title: t('signIn.passkeyNotUsed'), text: passkeyErrorMessage(e) };
}

/**
 * The portal's sign-in: username and password (then the enrolled second factor), or a
 * passkey alone. Afterwards it goes to `rd` when that is an address on this portal, else to
 * the launcher.
 */
export function PortalSignInPage() {
  const { t } = useTranslation('portal');
  const [params] = useSearchParams();
  const info = usePortalInfo().data;
  const registration = usePortalRegistration();
  const resetOffered = usePortalResetOffered();
  const login = usePortalLogin();
  const code = usePortalCode();
  const passkey = usePortalPasskey();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [methods, setMethods] = useState<SecondFactorMethod[] | null>(null);
  const [mode, setMode] = useState<'totp' | 'recovery'>('totp');
  const [otp, setOtp] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);

  // Set once the person starts signing in here: from then on only their sign-in moves on.
  const signingIn = useRef(false);
  // A full navigation: rd may be a page the portal's own router does not know.
  const done = () => {
    signingIn.current = true;
    window.location.assign(safeRedirect(params.get('rd'), window.location.origin));
  };

  // A service sends people here on their way to it (rd). Someone already signed in goes
  // straight on, unless the service asked them to sign in again (reauth) or to use a
  // second factor (stepup): then they sign in again here.
  const stepUp = params.get('stepup') === '1';
  const again = stepUp || params.get('reauth') === '1';
  const me = useMe(!again);
  const signedIn = !again && me.isSuccess;
  useEffect(() => {
    if (signedIn && !signingIn.current) window.location.assign(safeRedirect(params.get('rd'), window.location.origin));
  }, [signedIn, params]);

  const submitPassword = async (e: FormEvent) => {
    signingIn.current = true;
    e.preventDefault();
    setProblem(null);
    if (!username.trim() || !password) {
      setProblem({ tone: 'danger', title: t('signIn.missingTitle'), text: t('signIn.missingText') });
      return;
    }
    try {
      const res = await login.mutateAsync({ body: { username: username.trim(), password }, rememberMe });
      if ('secondFactor' in res) {
        setMethods(res.secondFactor.methods);
        setMode(res.secondFactor.methods.includes('totp') ? 'totp' : 'recovery');
      } else done();
    } catch (err) {
      setProblem(describe(err, 'username or password'));
    }
  };

  const submitCode = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    try {
      await code.mutateAsync({ method: mode, code: otp.trim(), rememberMe });
      done();
    } catch (err) {
      setProblem(describe(err, mode === 'totp' ? 'code' : 'recovery code'));
    }
  };

  const signInWithPasskey = async () => {
    signingIn.current = true;
    setProblem(null);
    try {
      await passkey.mutateAsync(rememberMe);
      done();
    } catch (err) {
      setProblem(describe(err, 'passkey'));
    }
  };

  const alert = problem ? (
    <Alert tone={problem.tone} title={problem.title}>
      {problem.text}
    </Alert>
  ) : null;
  const canPasskey = passkeysSupported() && info?.passkeys === true;

  if (methods) {
    return (
      <PortalCard title={t('signIn.stepTitle')} subtitle={t('signIn.stepSubtitle')}>
        <div className="stack">
          {alert}
          {methods.includes('totp') || methods.includes('recovery') ? (
            <form className="stack" onSubmit={submitCode} noValidate aria-label={t('signIn.codeFormLabel')}>
              <Field label={mode === 'totp' ? t('signIn.totpLabel') : t('signIn.recoveryLabel')}>
                <input className="input" inputMode={mode === 'totp' ? 'numeric' : 'text'} autoComplete="one-time-code" autoFocus value={otp} onChange={(e) => setOtp(e.target.value)} />
              </Field>
              <Button type="submit" variant="primary" className="btn-block" loading={code.isPending}>
                {t('signIn.continue')}
              </Button>
              {methods.includes('totp') && methods.includes('recovery') ? (
                <Button variant="ghost" size="sm" onClick={() => setMode(mode === 'totp' ? 'recovery' : 'totp')}>
                  {mode === 'totp' ? t('signIn.useRecovery') : t('signIn.useApp')}
                </Button>
              ) : null}
            </form>
          ) : null}
          {methods.includes('passkey') && passkeysSupported() ? (
            <Button icon="key" className="btn-block" loading={passkey.isPending} onClick={signInWithPasskey}>
              {t('signIn.useYourPasskey')}
            </Button>
          ) : null}
          <Button variant="ghost" size="sm" onClick={() => setMethods(null)}>
            {t('signIn.startAgain')}
          </Button>
        </div>
      </PortalCard>
    );
  }

  return (
    <PortalCard
      title={again ? t('signIn.titleAgain') : t('signIn.title')}
      subtitle={
        stepUp
          ? t('signIn.stepUp')
          : again
            ? t('signIn.again')
            : info?.name
              ? t('signIn.welcome', { name: info.name })
              : undefined
      }
    >
      <div className="stack">
        {alert}
        <form className="stack" onSubmit={submitPassword} noValidate aria-label={t('signIn.passwordFormLabel')}>
          <Field label={t('signIn.username')}>
            <input className="input" autoComplete="username webauthn" autoFocus value={username} onChange={(e) => setUsername(e.target.value)} />
          </Field>
          <Field label={t('signIn.password')}>
            <input className="input" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </Field>
          <label className="checkbox">
            <input type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} /> {t('signIn.remember')}
          </label>
          <Button type="submit" variant="primary" className="btn-block" loading={login.isPending}>
            {t('signIn.submit')}
          </Button>
        </form>
        {canPasskey ? (
          <Button icon="key" className="btn-block" loading={passkey.isPending} onClick={signInWithPasskey}>
            {t('signIn.usePasskey')}
          </Button>
        ) : null}
        {resetOffered.data?.available ? (
          <Link className="small" to="/forgot-password">
            {t('signIn.forgot')}
          </Link>
        ) : null}
        {registration.data?.available ? (
          <Link className="small" to="/register">
            {t('signIn.register')}
          </Link>
        ) : null}
      </div>
    </PortalCard>
  );
}
