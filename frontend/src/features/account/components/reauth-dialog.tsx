import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { errorMessage, isApiError } from '@/lib/api-client';
import { passkeyErrorMessage, passkeysSupported } from '@/lib/webauthn';
import { isReauthRequired, ProofContext, useReauthenticate, useReauthenticateWithPasskey, type WithProof } from '../api/reauth';
import { useTwoFactorStatus } from '../api/two-factor';

type Pending = { proved: () => void; cancelled: () => void };

/**
 * Gives the changes below it (adding a passkey, setting up TOTP, new recovery codes,
 * removing a passkey) a way to ask for a proof of who one is when the server wants a recent
 * one: a dialog for the password, a code from the app or a passkey, then the change again.
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
      {pending ? <ReauthDialog onProved={() => settle(true)} onCancel={() => settle(false)} /> : null}
    </ProofContext.Provider>
  );
}

/** Asks for the password, a current code from the app, or one of one's passkeys. */
export function ReauthDialog({ onProved, onCancel }: { onProved: () => void; onCancel: () => void }) {
  const { t } = useTranslation(['account', 'common']);
  const status = useTwoFactorStatus();
  const reauth = useReauthenticate();
  const withPasskey = useReauthenticateWithPasskey();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ password?: string; code?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const st = status.data;
  const canCode = !!st?.totp;
  const canPasskey = !!st && st.passkeys > 0 && st.passkeysAvailable && passkeysSupported();

  const fail = (e: unknown) => {
    if (isApiError(e) && e.fields.length > 0) {
      const next: { password?: string; code?: string } = {};
      const other: string[] = [];
      for (const f of e.fields) {
        if (f.field === 'password' || f.field === 'code') next[f.field] = f.message;
        else other.push(f.message);
      }
      setFieldErrors(next);
      setFormError(other.length ? other.join(' ') : null);
      return;
    }
    setFormError(isApiError(e) ? errorMessage(e) : passkeyErrorMessage(e));
  };

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const trimmed = code.replace(/\s+/g, '');
    if (password === '' && trimmed === '') {
      setFieldErrors({ password: canCode ? t('reauth.passwordOrCode') : t('reauth.passwordRequired') });
      return;
    }
    if (password === '' && !/^\d{6}$/.test(trimmed)) {
      setFieldErrors({ code: t('reauth.codeInvalid') });
      return;
    }
    setFieldErrors({});
    try {
      await reauth.mutateAsync(password !== '' ? { password } : { code: trimmed });
      onProved();
    } catch (err) {
      fail(err);
    }
  };

  const onPasskey = async () => {
    setFormError(null);
    setFieldErrors({});
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
      title={t('reauth.title')}
      description={t('reauth.description')}
      onClose={onCancel}
      footer={
        <>
          <Button onClick={onCancel}>{t('common:actions.cancel')}</Button>
          <Button type="submit" form="reauth-form" variant="primary" loading={reauth.isPending}>
            {t('reauth.confirm')}
          </Button>
        </>
      }
    >
      <form id="reauth-form" className="stack" onSubmit={onSubmit} noValidate aria-label={t('reauth.title')}>
        {formError ? (
          <Alert tone="danger" title={t('reauth.notConfirmed')}>
            {formError}
          </Alert>
        ) : null}
        <Field label={t('reauth.password')} error={fieldErrors.password}>
          <input
            className="input"
            type="password"
            autoComplete="current-password"
            data-autofocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        {canCode ? (
          <Field label={t('reauth.orCode')} error={fieldErrors.code} optional>
            <input
              className="input mono"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </Field>
        ) : null}
        {canPasskey ? (
          <div>
            <Button icon="key" loading={withPasskey.isPending} onClick={onPasskey}>
              {t('reauth.usePasskey')}
            </Button>
          </div>
        ) : null}
      </form>
    </Modal>
  );
}
