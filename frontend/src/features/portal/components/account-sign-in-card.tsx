import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { ConfirmDialog } from '@/components/ui/modal';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { errorMessage, isApiError } from '@/lib/api-client';
import type { Passkey, TotpEnrolment } from '@/lib/api-types';
import { asSentence, formatDateTime, formatRelative } from '@/lib/format';
import { passkeyErrorMessage, passkeysSupported } from '@/lib/webauthn';
import {
  useAddPasskey,
  useConfirmAuthenticatorApp,
  useMyPasskeys,
  useMyTwoFactor,
  useNewRecoveryCodes,
  useRemoveAuthenticatorApp,
  useRemovePasskey,
  useStartAuthenticatorApp,
} from '../api/account';
import { ProofProvider } from './account-proof';

/** Passkeys, the authenticator app and recovery codes, in words for anyone. */
export function SignInCard() {
  return (
    <ProofProvider>
      <SignInCardBody />
    </ProofProvider>
  );
}

function SignInCardBody() {
  const status = useMyTwoFactor();
  const [codes, setCodes] = useState<string[] | null>(null);
  const st = status.data;
  return (
    <Card>
      <CardHeader
        title="Ways to sign in"
        description="Make your account safer with a second step after your password, or sign in with a passkey instead of typing a password."
      />
      <div className="card-body stack">
        {status.isError ? (
          <ErrorState error={status.error} onRetry={() => status.refetch()} title="This part of the page could not be loaded" />
        ) : !st ? (
          <LoadingRows rows={3} />
        ) : (
          <>
            {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}
            <PasskeysSection available={st.passkeysAvailable} problem={st.passkeysProblem} />
            <AuthenticatorAppSection on={st.totp} onCodes={setCodes} />
            {st.enrolled ? <RecoveryCodesSection left={st.recoveryCodesLeft} onCodes={setCodes} /> : null}
          </>
        )}
      </div>
    </Card>
  );
}

function PasskeysSection({ available, problem }: { available: boolean; problem?: string }) {
  const passkeys = useMyPasskeys();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const onAdd = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await add.mutateAsync(name.trim());
      setName('');
    } catch (err) {
      setError(isApiError(err) ? errorMessage(err) : passkeyErrorMessage(err));
    }
  };
  const list = passkeys.data ?? [];
  return (
    <section className="stack-sm" aria-labelledby="portal-passkeys">
      <h3 id="portal-passkeys">Passkeys</h3>
      <p className="muted small">
        A passkey lets you sign in with your fingerprint, your face, your device's screen lock or a security key, with no
        password to type. It also works as the second step after your password.
      </p>
      {passkeys.isError ? (
        <ErrorState error={passkeys.error} onRetry={() => passkeys.refetch()} />
      ) : passkeys.isPending ? (
        <LoadingRows rows={1} />
      ) : list.length === 0 ? (
        <p className="small">You have no passkeys yet.</p>
      ) : (
        <ul className="account-list" aria-label="Your passkeys">
          {list.map((p) => (
            <li key={p.id} className="account-item">
              <span>
                <strong>{p.name}</strong>
                <span className="muted small account-meta">
                  Added {formatDateTime(p.createdAt)} · {p.lastUsedAt ? `last used ${formatRelative(p.lastUsedAt)}` : 'not used yet'}
                </span>
              </span>
              <Button size="sm" variant="ghost" icon="trash" onClick={() => setRemoving(p)} aria-label={`Remove passkey ${p.name}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {!available ? (
        <Alert tone="info" title="Passkeys can't be added here right now">
          {problem ? asSentence(problem) : 'Ask the person who runs this site.'}
        </Alert>
      ) : !passkeysSupported() ? (
        <Alert tone="info" title="This browser can't make passkeys">
          Try another browser, or your phone.
        </Alert>
      ) : (
        <form className="row account-add" onSubmit={onAdd} aria-label="Add a passkey">
          <Field label="Name for the passkey" hint="So you can tell them apart, for example My phone." optional>
            <input className="input" maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Button type="submit" icon="key" loading={add.isPending}>
            Add a passkey
          </Button>
        </form>
      )}
      {error ? (
        <Alert tone="danger" title="The passkey was not added">
          {error}
        </Alert>
      ) : null}
      <ConfirmDialog
        open={!!removing}
        title="Remove this passkey?"
        message={`You will no longer be able to sign in with ${removing?.name ?? 'this passkey'}.`}
        confirmLabel="Remove"
        danger
        loading={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate(removing.id, { onSettled: () => setRemoving(null) })}
      />
    </section>
  );
}

function AuthenticatorAppSection({ on, onCodes }: { on: boolean; onCodes: (codes: string[]) => void }) {
  const start = useStartAuthenticatorApp();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [removing, setRemoving] = useState(false);
  return (
    <section className="stack-sm" aria-labelledby="portal-totp">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h3 id="portal-totp" className="row">
          Authenticator app {on ? <Badge tone="success" icon="check">On</Badge> : <Badge>Off</Badge>}
        </h3>
        {on && !removing ? (
          <Button size="sm" variant="ghost" onClick={() => setRemoving(true)}>
            Remove
          </Button>
        ) : null}
      </div>
      <p className="muted small">
        An app on your phone, such as Google Authenticator, Microsoft Authenticator or your password manager, shows a
        6-digit code you type after your password.
      </p>
      {!on && !enrolment ? (
        <div>
          <Button icon="qr" loading={start.isPending} onClick={() => start.mutate(undefined, { onSuccess: setEnrolment })}>
            Set up an authenticator app
          </Button>
        </div>
      ) : null}
      {!on && enrolment ? (
        <FinishSetUp
          enrolment={enrolment}
          onCancel={() => setEnrolment(null)}
          onDone={(codes) => {
            setEnrolment(null);
            onCodes(codes);
          }}
        />
      ) : null}
      {on && removing ? <RemoveApp onDone={() => setRemoving(false)} /> : null}
    </section>
  );
}

function FinishSetUp({ enrolment, onDone, onCancel }: { enrolment: TotpEnrolment; onDone: (codes: string[]) => void; onCancel: () => void }) {
  const confirm = useConfirmAuthenticatorApp();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const digits = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError('Type the 6-digit code the app shows.');
      return;
    }
    try {
      onDone(await confirm.mutateAsync(digits));
    } catch (err) {
      if (isApiError(err)) err.fieldsShown = true;
      setError(isApiError(err) && err.fields.length ? err.fields.map((f) => f.message).join(' ') : errorMessage(err));
    }
  };
  return (
    <form className="stack-sm" onSubmit={onSubmit} noValidate aria-label="Finish setting up the authenticator app">
      <ol className="small account-steps">
        <li>Open the app on your phone and choose to add an account.</li>
        <li>Scan this picture with it, or type the key below into it.</li>
        <li>Type the 6-digit code the app then shows.</li>
      </ol>
      <div className="qr" style={{ width: 222, height: 222 }}>
        <img src={enrolment.qrCode} width={200} height={200} alt="QR code to scan with the authenticator app" />
      </div>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <Field label="Key to type into the app" className="grow">
          <input className="input mono" value={enrolment.secret} readOnly />
        </Field>
        <CopyButton text={enrolment.secret} />
      </div>
      <Field label="6-digit code from the app" error={error ?? undefined}>
        <input className="input mono" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
      </Field>
      <div className="row">
        <Button type="submit" variant="primary" icon="check" loading={confirm.isPending}>
          Finish set-up
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function RemoveApp({ onDone }: { onDone: () => void }) {
  const remove = useRemoveAuthenticatorApp();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!password && !code.trim()) {
      setError('Type your password, or a code from the app.');
      return;
    }
    try {
      await remove.mutateAsync(password ? { password } : { code: code.replace(/\s+/g, '') });
      onDone();
    } catch (err) {
      if (isApiError(err)) err.fieldsShown = true;
      setError(isApiError(err) && err.fields.length ? err.fields.map((f) => f.message).join(' ') : asSentence(errorMessage(err)));
    }
  };
  return (
    <form className="stack-sm" onSubmit={onSubmit} noValidate aria-label="Remove the authenticator app">
      <p className="small">To remove the app, confirm it's you.</p>
      {error ? (
        <Alert tone="danger" title="The app was not removed">
          {error}
        </Alert>
      ) : null}
      <div className="grid-2">
        <Field label="Your password">
          <input className="input" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <Field label="Or a code from the app" optional>
          <input className="input mono" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
        </Field>
      </div>
      <div className="row">
        <Button type="submit" variant="danger" loading={remove.isPending}>
          Remove the authenticator app
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function RecoveryCodesSection({ left, onCodes }: { left: number; onCodes: (codes: string[]) => void }) {
  const make = useNewRecoveryCodes();
  const [confirming, setConfirming] = useState(false);
  return (
    <section className="stack-sm" aria-labelledby="portal-recovery">
      <h3 id="portal-recovery">Recovery codes</h3>
      <p className="muted small">
        Codes you can use once each to sign in if you lose your phone or security key.{' '}
        {left === 0 ? <strong>You have none left: make new ones.</strong> : `You have ${left} left.`}
      </p>
      <div>
        <Button size="sm" icon="refresh" onClick={() => setConfirming(true)}>
          Make new codes
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Make new recovery codes?"
        message="Your current recovery codes will stop working."
        confirmLabel="Make new codes"
        loading={make.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => make.mutate(undefined, { onSuccess: onCodes, onSettled: () => setConfirming(false) })}
      />
    </section>
  );
}

function download(codes: string[]) {
  const blob = new Blob([`Recovery codes (each works once)\n\n${codes.join('\n')}\n`], { type: 'text/plain' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = 'recovery-codes.txt';
  a.click();
  URL.revokeObjectURL(url);
}

/** New recovery codes, shown only once. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Alert tone="warning" title="Save your recovery codes now">
      <p>
        Each code lets you sign in once if you lose your phone or security key. You will not see them again: keep them in
        your password manager, or print them and keep them somewhere safe.
      </p>
      <ol className="mono recovery-codes" aria-label="Recovery codes" style={{ columns: 2, margin: '12px 0' }}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <div className="row">
        <CopyButton text={codes.join('\n')} label="Copy codes" />
        <Button size="sm" icon="external" onClick={() => download(codes)}>
          Download
        </Button>
        <Button size="sm" variant="primary" icon="check" onClick={onDone}>
          I have saved them
        </Button>
      </div>
    </Alert>
  );
}
