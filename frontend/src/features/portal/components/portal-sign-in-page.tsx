import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { isApiError } from '@/lib/api-client';
import type { SecondFactorMethod } from '@/lib/api-types';
import { useMe } from '@/lib/api/system';
import { passkeyErrorMessage, passkeysSupported } from '@/lib/webauthn';
import { usePortalCode, usePortalInfo, usePortalLogin, usePortalPasskey, usePortalRegistration, usePortalResetOffered } from '../api/portal';
import { safeRedirect } from '../lib/redirect';
import { PortalCard } from './portal-layout';

type Problem = { tone: 'danger' | 'warning'; title: string; text: string };

/** Plain words for what went wrong: a person who is not technical reads them. */
function describe(e: unknown, what: string): Problem {
  if (isApiError(e) && e.code === 'rate_limited') {
    const wait = e.retryAfter ? Math.max(1, Math.round(e.retryAfter / 60)) : null;
    return { tone: 'warning', title: 'Too many attempts', text: wait ? `Please wait ${wait} minute${wait === 1 ? '' : 's'} and try again.` : 'Please wait a few minutes and try again.' };
  }
  if (isApiError(e) && e.status === 403 && /disabled/.test(e.message))
    return { tone: 'danger', title: 'Account disabled', text: 'Your account is turned off. Ask the person who runs this site.' };
  if (isApiError(e) && e.status === 401 && /expired/.test(e.message))
    return { tone: 'warning', title: 'That took too long', text: 'Please enter your password again.' };
  if (isApiError(e) && e.status === 401) return { tone: 'danger', title: 'Could not sign you in', text: `The ${what} is not right. Please try again.` };
  if (isApiError(e)) return { tone: 'danger', title: 'Could not sign you in', text: 'Something went wrong. Please try again in a moment.' };
  return { tone: 'danger', title: 'Passkey not used', text: passkeyErrorMessage(e) };
}

/** What the provider sign-in's return (`?error=`) means, in plain words. */
const providerProblems: Record<string, Problem> = {
  sso_unavailable: { tone: 'warning', title: 'Not available right now', text: 'Signing in with that account is not possible at the moment. Use your password or passkey, or try again later.' },
  sso_expired: { tone: 'warning', title: 'That took too long', text: 'The sign-in expired or was already used. Please try again.' },
  sso_refused: { tone: 'warning', title: 'Sign-in cancelled', text: 'The sign-in was cancelled or refused. You can try again.' },
  sso_failed: { tone: 'danger', title: 'Could not sign you in', text: 'Something went wrong while signing you in. Please try again in a moment.' },
  sso_not_allowed: { tone: 'danger', title: 'No account here', text: 'That account does not have access to this site. Ask the person who runs it to invite you.' },
  sso_disabled: { tone: 'danger', title: 'Account disabled', text: 'Your account is turned off. Ask the person who runs this site.' },
  sso_rate_limited: { tone: 'warning', title: 'Too many attempts', text: 'Please wait a few minutes and try again.' },
};

const providerFailed: Problem = { tone: 'danger', title: 'Could not sign you in', text: 'Something went wrong while signing you in. Please try again in a moment.' };

/** Where "Sign in with …" starts: the server keeps rd only when it is an address on the portal. */
export function providerStartURL(rd: string | null, rememberMe: boolean): string {
  const q = new URLSearchParams();
  if (rd) q.set('rd', rd);
  if (rememberMe) q.set('remember', '1');
  const qs = q.toString();
  return `/api/portal/sso/start${qs ? `?${qs}` : ''}`;
}

/**
 * The portal's sign-in: username and password (then the enrolled second factor), or a
 * passkey alone. Afterwards it goes to `rd` when that is an address on this portal, else to
 * the launcher.
 */
export function PortalSignInPage() {
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
  const returned = params.get('error');
  const [problem, setProblem] = useState<Problem | null>(returned ? (providerProblems[returned] ?? providerFailed) : null);

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
      setProblem({ tone: 'danger', title: 'Missing details', text: 'Enter your username and password.' });
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
      <PortalCard title="One more step" subtitle="Confirm it is you.">
        <div className="stack">
          {alert}
          {methods.includes('totp') || methods.includes('recovery') ? (
            <form className="stack" onSubmit={submitCode} noValidate aria-label="Enter a code">
              <Field label={mode === 'totp' ? 'Code from your authenticator app' : 'Recovery code'}>
                <input className="input" inputMode={mode === 'totp' ? 'numeric' : 'text'} autoComplete="one-time-code" autoFocus value={otp} onChange={(e) => setOtp(e.target.value)} />
              </Field>
              <Button type="submit" variant="primary" className="btn-block" loading={code.isPending}>
                Continue
              </Button>
              {methods.includes('totp') && methods.includes('recovery') ? (
                <Button variant="ghost" size="sm" onClick={() => setMode(mode === 'totp' ? 'recovery' : 'totp')}>
                  {mode === 'totp' ? 'Use a recovery code instead' : 'Use the authenticator app instead'}
                </Button>
              ) : null}
            </form>
          ) : null}
          {methods.includes('passkey') && passkeysSupported() ? (
            <Button icon="key" className="btn-block" loading={passkey.isPending} onClick={signInWithPasskey}>
              Use your passkey
            </Button>
          ) : null}
          <Button variant="ghost" size="sm" onClick={() => setMethods(null)}>
            Start again
          </Button>
        </div>
      </PortalCard>
    );
  }

  return (
    <PortalCard
      title={again ? 'Sign in again' : 'Sign in'}
      subtitle={
        stepUp
          ? 'The service you are opening asks for your second factor: sign in with a passkey, or with your password and your code.'
          : again
            ? 'It has been a while: the service you are opening asks you to sign in again.'
            : info?.name
              ? `Welcome to ${info.name}.`
              : undefined
      }
    >
      <div className="stack">
        {alert}
        <form className="stack" onSubmit={submitPassword} noValidate aria-label="Sign in with a password">
          <Field label="Username">
            <input className="input" autoComplete="username webauthn" autoFocus value={username} onChange={(e) => setUsername(e.target.value)} />
          </Field>
          <Field label="Password">
            <input className="input" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </Field>
          <label className="checkbox">
            <input type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} /> Keep me signed in on this device
          </label>
          <Button type="submit" variant="primary" className="btn-block" loading={login.isPending}>
            Sign in
          </Button>
        </form>
        {canPasskey ? (
          <Button icon="key" className="btn-block" loading={passkey.isPending} onClick={signInWithPasskey}>
            Use a passkey
          </Button>
        ) : null}
        {info?.provider ? (
          <a className="btn btn-block" href={providerStartURL(params.get('rd'), rememberMe)} onClick={() => (signingIn.current = true)}>
            Sign in with {info.provider}
          </a>
        ) : null}
        {resetOffered.data?.available ? (
          <Link className="small" to="/forgot-password">
            Forgot your password?
          </Link>
        ) : null}
        {registration.data?.available ? (
          <Link className="small" to="/register">
            Create an account
          </Link>
        ) : null}
      </div>
    </PortalCard>
  );
}
