import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { errorMessage, isApiError } from '@/lib/api-client';
import { passkeyErrorMessage, passkeysSupported } from '@/lib/webauthn';
import { isReauthRequired, ProofContext, useMyTwoFactor, useReauthenticate, useReauthenticateWithPasskey, type WithProof } from '../api/account';

type Pending = { proved: () => void; cancelled: () => void };

/**
 * Lets the changes below it ask "is it really you?" when the server wants a
 * recent proof (adding a passkey or an authenticator app, new recovery codes,
 * removing a passkey), then runs the change again.
 */
export function ProofProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);
  const withProof = useCallback<WithProof>(async (run) => {
    try {
      return await run();
    } catch (e) {
      if (!isReauthRequired(e)) throw e;
      await new Promise<void>((resolve, reject) => {
        const p = { proved: resolve, cancelled: () => reject(e) };
        pendingRef.current = p;
        setPending(p);
      });
      return run();
    }
  }, []);
  const settle = (proved: boolean) => {
    const p = pendingRef.current;
    pendingRef.current = null;
    setPending(null);
    if (proved) p?.proved();
    else p?.cancelled();
  };
  return (
    <ProofContext.Provider value={withProof}>
      {children}
      {pending ? <ConfirmItsYou onProved={() => settle(true)} onCancel={() => settle(false)} /> : null}
    </ProofContext.Provider>
  );
}

/** Asks for the password, a code from the authenticator app, or a passkey. */
function ConfirmItsYou({ onProved, onCancel }: { onProved: () => void; onCancel: () => void }) {
  const { t } = useTranslation(['portal', 'common']);
  const status = useMyTwoFactor();
  const reauth = useReauthenticate();
  const withPasskey = useReauthenticateWithPasskey();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const st = status.data;
  const canCode = !!st?.totp;
  const canPasskey = !!st && st.passkeys > 0 && st.passkeysAvailable && passkeysSupported();

  const fail = (e: unknown) => {
    if (isApiError(e) && e.fields.length > 0) {
      e.fieldsShown = true;
      setError(e.fields.map((f) => f.message).join(' '));
    } else {
      setError(isApiError(e) ? errorMessage(e) : passkeyErrorMessage(e));
    }
  };
  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const digits = code.replace(/\s+/g, '');
    if (password === '' && digits === '') {
      setError(canCode ? t('proof.passwordOrCode') : t('proof.passwordRequired'));
      return;
    }
    if (password === '' && !/^\d{6}$/.test(digits)) {
      setError(t('proof.codeDigits'));
      return;
    }
    try {
      await reauth.mutateAsync(password !== '' ? { password } : { code: digits });
      onProved();
    } catch (err) {
      fail(err);
    }
  };
  const onPasskey = async () => {
    setError(null);
    try {
      await withPasskey.mutateAsync();
      onProved();
    } catch (err) {
      fail(err);
    }
  };
  return (
    <Modal
      open
      title={t('proof.title')}
      description={t('proof.description')}
      onClose={onCancel}
      footer={
        <>
          <Button onClick={onCancel}>{t('common:actions.cancel')}</Button>
          <Button type="submit" form="portal-proof" variant="primary" loading={reauth.isPending}>
            {t('proof.confirm')}
          </Button>
        </>
      }
    >
      <form id="portal-proof" className="stack" onSubmit={onSubmit} noValidate aria-label={t('proof.title')}>
        {error ? (
          <Alert tone="danger" title={t('proof.failed')}>
            {error}
          </Alert>
        ) : null}
        <Field label={t('proof.password')}>
          <input className="input" type="password" autoComplete="current-password" data-autofocus value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        {canCode ? (
          <Field label={t('proof.code')} optional>
            <input className="input mono" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
          </Field>
        ) : null}
        {canPasskey ? (
          <div>
            <Button icon="key" loading={withPasskey.isPending} onClick={onPasskey}>
              {t('proof.usePasskey')}
            </Button>
          </div>
        ) : null}
      </form>
    </Modal>
  );
}
