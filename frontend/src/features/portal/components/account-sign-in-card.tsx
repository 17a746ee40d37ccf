import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
import i18n from '@/lib/i18n';
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
  const { t } = useTranslation('portal');
  const status = useMyTwoFactor();
  const [codes, setCodes] = useState<string[] | null>(null);
  const st = status.data;
  return (
    <Card>
      <CardHeader
        title={t('signInCard.title')}
        description={t('signInCard.description')}
      />
      <div className="card-body stack">
        {status.isError ? (
          <ErrorState error={status.error} onRetry={() => status.refetch()} title={t('signInCard.loadFailed')} />
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
  const { t } = useTranslation('portal');
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
      <h3 id="portal-passkeys">{t('passkeys.heading')}</h3>
      <p className="muted small">{t('passkeys.intro')}</p>
      {passkeys.isError ? (
        <ErrorState error={passkeys.error} onRetry={() => passkeys.refetch()} />
      ) : passkeys.isPending ? (
        <LoadingRows rows={1} />
      ) : list.length === 0 ? (
        <p className="small">{t('passkeys.none')}</p>
      ) : (
        <ul className="account-list" aria-label={t('passkeys.listLabel')}>
          {list.map((p) => (
            <li key={p.id} className="account-item">
              <span>
                <strong>{p.name}</strong>
                <span className="muted small account-meta">
                  {t('passkeys.added', { date: formatDateTime(p.createdAt) })} ·{' '}
                  {p.lastUsedAt ? t('passkeys.lastUsed', { ago: formatRelative(p.lastUsedAt) }) : t('passkeys.notUsed')}
                </span>
              </span>
              <Button size="sm" variant="ghost" icon="trash" onClick={() => setRemoving(p)} aria-label={t('passkeys.removeLabel', { name: p.name })}>
                {t('passkeys.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {!available ? (
        <Alert tone="info" title={t('passkeys.unavailableTitle')}>
          {problem ? asSentence(problem) : t('passkeys.askAdmin')}
        </Alert>
      ) : !passkeysSupported() ? (
        <Alert tone="info" title={t('passkeys.unsupportedTitle')}>
          {t('passkeys.unsupportedText')}
        </Alert>
      ) : (
        <form className="row account-add" onSubmit={onAdd} aria-label={t('passkeys.addLabel')}>
          <Field label={t('passkeys.nameLabel')} hint={t('passkeys.nameHint')} optional>
            <input className="input" maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Button type="submit" icon="key" loading={add.isPending}>
            {t('passkeys.add')}
          </Button>
        </form>
      )}
      {error ? (
        <Alert tone="danger" title={t('passkeys.notAdded')}>
          {error}
        </Alert>
      ) : null}
      <ConfirmDialog
        open={!!removing}
        title={t('passkeys.removeTitle')}
        message={removing ? t('passkeys.removeMessage', { name: removing.name }) : t('passkeys.removeMessageUnnamed')}
        confirmLabel={t('passkeys.remove')}
        danger
        loading={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate(removing.id, { onSettled: () => setRemoving(null) })}
      />
    </section>
  );
}

function AuthenticatorAppSection({ on, onCodes }: { on: boolean; onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation('portal');
  const start = useStartAuthenticatorApp();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [removing, setRemoving] = useState(false);
  return (
    <section className="stack-sm" aria-labelledby="portal-totp">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h3 id="portal-totp" className="row">
          {t('app.heading')}{' '}
          {on ? (
            <Badge tone="success" icon="check">
              {t('app.on')}
            </Badge>
          ) : (
            <Badge>{t('app.off')}</Badge>
          )}
        </h3>
        {on && !removing ? (
          <Button size="sm" variant="ghost" onClick={() => setRemoving(true)}>
            {t('app.remove')}
          </Button>
        ) : null}
      </div>
      <p className="muted small">{t('app.intro')}</p>
      {!on && !enrolment ? (
        <div>
          <Button icon="qr" loading={start.isPending} onClick={() => start.mutate(undefined, { onSuccess: setEnrolment })}>
            {t('app.setUp')}
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
  const { t } = useTranslation(['portal', 'common']);
  const confirm = useConfirmAuthenticatorApp();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const digits = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError(t('app.codeDigits'));
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
    <form className="stack-sm" onSubmit={onSubmit} noValidate aria-label={t('app.finishLabel')}>
      <ol className="small account-steps">
        <li>{t('app.step1')}</li>
        <li>{t('app.step2')}</li>
        <li>{t('app.step3')}</li>
      </ol>
      <div className="qr" style={{ width: 222, height: 222 }}>
        <img src={enrolment.qrCode} width={200} height={200} alt={t('app.qrAlt')} />
      </div>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <Field label={t('app.key')} className="grow">
          <input className="input mono" value={enrolment.secret} readOnly />
        </Field>
        <CopyButton text={enrolment.secret} />
      </div>
      <Field label={t('app.code')} error={error ?? undefined}>
        <input className="input mono" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
      </Field>
      <div className="row">
        <Button type="submit" variant="primary" icon="check" loading={confirm.isPending}>
          {t('app.finish')}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t('common:actions.cancel')}
        </Button>
      </div>
    </form>
  );
}

function RemoveApp({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation(['portal', 'common']);
  const remove = useRemoveAuthenticatorApp();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!password && !code.trim()) {
      setError(t('app.passwordOrCode'));
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
    <form className="stack-sm" onSubmit={onSubmit} noValidate aria-label={t('app.removeLabel')}>
      <p className="small">{t('app.removeIntro')}</p>
      {error ? (
        <Alert tone="danger" title={t('app.notRemoved')}>
          {error}
        </Alert>
      ) : null}
      <div className="grid-2">
        <Field label={t('app.password')}>
          <input className="input" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <Field label={t('app.orCode')} optional>
          <input className="input mono" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
        </Field>
      </div>
      <div className="row">
        <Button type="submit" variant="danger" loading={remove.isPending}>
          {t('app.removeSubmit')}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          {t('common:actions.cancel')}
        </Button>
      </div>
    </form>
  );
}

function RecoveryCodesSection({ left, onCodes }: { left: number; onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation('portal');
  const make = useNewRecoveryCodes();
  const [confirming, setConfirming] = useState(false);
  return (
    <section className="stack-sm" aria-labelledby="portal-recovery">
      <h3 id="portal-recovery">{t('recovery.heading')}</h3>
      <p className="muted small">
        {t('recovery.intro')} {left === 0 ? <strong>{t('recovery.noneLeft')}</strong> : t('recovery.left', { count: left })}
      </p>
      <div>
        <Button size="sm" icon="refresh" onClick={() => setConfirming(true)}>
          {t('recovery.make')}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('recovery.confirmTitle')}
        message={t('recovery.confirmMessage')}
        confirmLabel={t('recovery.make')}
        loading={make.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => make.mutate(undefined, { onSuccess: onCodes, onSettled: () => setConfirming(false) })}
      />
    </section>
  );
}

function download(codes: string[]) {
  const blob = new Blob([`${i18n.t('portal:recovery.fileHeading')}\n\n${codes.join('\n')}\n`], { type: 'text/plain' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = 'recovery-codes.txt';
  a.click();
  URL.revokeObjectURL(url);
}

/** New recovery codes, shown only once. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('portal');
  return (
    <Alert tone="warning" title={t('recovery.saveTitle')}>
      <p>{t('recovery.saveText')}</p>
      <ol className="mono recovery-codes" aria-label={t('recovery.listLabel')} style={{ columns: 2, margin: '12px 0' }}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <div className="row">
        <CopyButton text={codes.join('\n')} label={t('recovery.copy')} />
        <Button size="sm" icon="external" onClick={() => download(codes)}>
          {t('recovery.download')}
        </Button>
        <Button size="sm" variant="primary" icon="check" onClick={onDone}>
          {t('recovery.saved')}
        </Button>
      </div>
    </Alert>
  );
}
