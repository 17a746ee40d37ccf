import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { errorMessage, isApiError } from '@/lib/api-client';
import type { SecondFactorMethod } from '@/lib/api-types';
import { asSentence } from '@/lib/format';
import i18n from '@/lib/i18n';
import { passkeyErrorMessage, passkeysSupported } from '@/lib/webauthn';
import { useLoginCode, usePasskeyLogin } from '../api/auth';

const totpSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { error: () => i18n.t('sign-in:validation.totpCode') }),
});
const recoverySchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, { error: () => i18n.t('sign-in:validation.recoveryCode') }),
});
type Values = { code: string };

type Problem = { tone: 'danger' | 'warning'; title: string; text: string };

const wrong = { totp: 'secondFactor.wrongCode', recovery: 'secondFactor.wrongRecoveryCode', passkey: 'secondFactor.wrongPasskey' } as const;

function describe(e: unknown, what: keyof typeof wrong): Problem {
  const t = i18n.getFixedT(null, 'sign-in');
  if (isApiError(e) && e.code === 'rate_limited')
    return { tone: 'warning', title: t('secondFactor.locked'), text: asSentence(e.message) };
  if (isApiError(e) && e.status === 401 && /expired/.test(e.message))
    return { tone: 'warning', title: t('secondFactor.expiredTitle'), text: t('secondFactor.expiredText') };
  if (isApiError(e) && e.status === 401) return { tone: 'danger', title: t('secondFactor.failed'), text: t(wrong[what]) };
  return { tone: 'danger', title: t('secondFactor.failed'), text: isApiError(e) ? errorMessage(e) : passkeyErrorMessage(e) };
}

/**
 * The second step after a right password: a code from the authenticator app, a recovery
 * code, or a passkey, whichever the account has.
 */
export function SecondFactorStep({ methods, onDone, onRestart }: { methods: SecondFactorMethod[]; onDone: () => void; onRestart: () => void }) {
  const { t } = useTranslation('sign-in');
  const hasTotp = methods.includes('totp');
  const [mode, setMode] = useState<'totp' | 'recovery'>(hasTotp ? 'totp' : 'recovery');
  const [problem, setProblem] = useState<Problem | null>(null);
  const loginCode = useLoginCode();
  const passkey = usePasskeyLogin();
  const { register, handleSubmit, formState, reset } = useForm<Values>({
    resolver: zodResolver(mode === 'totp' ? totpSchema : recoverySchema),
    defaultValues: { code: '' },
  });
  const codeMethods = hasTotp || methods.includes('recovery');

  const onSubmit = handleSubmit(async ({ code }) => {
    setProblem(null);
    try {
      await loginCode.mutateAsync({ method: mode, code });
      onDone();
    } catch (e) {
      setProblem(describe(e, mode));
    }
  });

  const signInWithPasskey = async () => {
    setProblem(null);
    try {
      await passkey.mutateAsync();
      onDone();
    } catch (e) {
      setProblem(describe(e, 'passkey'));
    }
  };

  const switchMode = (m: 'totp' | 'recovery') => {
    setMode(m);
    setProblem(null);
    reset({ code: '' });
  };

  return (
    <div className="stack">
      {problem ? (
        <Alert tone={problem.tone} title={problem.title}>
          {problem.text}
        </Alert>
      ) : null}
      {codeMethods ? (
        <form className="stack" onSubmit={onSubmit} noValidate aria-label={t('secondFactor.formLabel')}>
          {mode === 'totp' ? (
            <Field label={t('secondFactor.code')} error={formState.errors.code?.message} hint={t('secondFactor.codeHint')}>
              <input key="totp" className="input mono" inputMode="numeric" autoComplete="one-time-code" autoFocus {...register('code')} />
            </Field>
          ) : (
            <Field label={t('secondFactor.recoveryCode')} error={formState.errors.code?.message} hint={t('secondFactor.recoveryCodeHint')}>
              <input key="recovery" className="input mono" autoComplete="off" autoFocus {...register('code')} />
            </Field>
          )}
          <Button type="submit" variant="primary" className="btn-block" loading={loginCode.isPending}>
            {t('secondFactor.verify')}
          </Button>
        </form>
      ) : null}
      {methods.includes('passkey') && passkeysSupported() ? (
        <Button icon="key" className="btn-block" loading={passkey.isPending} onClick={signInWithPasskey}>
          {t('secondFactor.usePasskey')}
        </Button>
      ) : null}
      <div className="row" style={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
        {hasTotp && methods.includes('recovery') ? (
          <Button variant="ghost" size="sm" onClick={() => switchMode(mode === 'totp' ? 'recovery' : 'totp')}>
            {mode === 'totp' ? t('secondFactor.useRecoveryCode') : t('secondFactor.useApp')}
          </Button>
        ) : (
          <span />
        )}
        <Button variant="ghost" size="sm" onClick={onRestart}>
          {t('secondFactor.startOver')}
        </Button>
      </div>
    </div>
  );
}
