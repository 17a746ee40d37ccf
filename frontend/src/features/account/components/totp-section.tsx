import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { errorMessage, isApiError } from '@/lib/api-client';
import type { TotpEnrolment } from '@/lib/api-types';
import { applyServerErrors } from '@/lib/form-errors';
import { asSentence } from '@/lib/format';
import i18n from '@/lib/i18n';
import { useBeginTotp, useConfirmTotp, useDisableTotp } from '../api/two-factor';

const codeSchema = z.object({ code: z.string().trim().regex(/^\d{6}$/, { error: () => i18n.t('account:totp.codeInvalid') }) });
type CodeValues = z.infer<typeof codeSchema>;

function ConfirmForm({ enrolment, onConfirmed }: { enrolment: TotpEnrolment; onConfirmed: (codes: string[]) => void }) {
  const { t } = useTranslation('account');
  const confirm = useConfirmTotp();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<CodeValues>({
    resolver: zodResolver(codeSchema),
    defaultValues: { code: '' },
  });
  const onSubmit = handleSubmit(async ({ code }) => {
    setFormError(null);
    try {
      onConfirmed(await confirm.mutateAsync(code));
    } catch (e) {
      const rest = applyServerErrors(e, setError, { known: (p) => p === 'code' });
      if (!isApiError(e) || e.fields.length === 0 || rest.length) setFormError(rest.join(' ') || errorMessage(e));
    }
  });
  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label={t('totp.confirmLabel')}>
      <p>{t('totp.scan')}</p>
      <div className="row" style={{ alignItems: 'flex-start', flexWrap: 'wrap', gap: 16 }}>
        <div className="qr" style={{ width: 262, height: 262 }}>
          <img src={enrolment.qrCode} width={240} height={240} alt={t('totp.qrAlt')} />
        </div>
        <div className="stack" style={{ flex: 1, minWidth: 220 }}>
          <div className="input-row">
            <Field label={t('totp.secret')} hint={t('totp.secretHint')} className="grow">
              <input className="input mono" value={enrolment.secret} readOnly />
            </Field>
            <CopyButton text={enrolment.secret} />
          </div>
          {formError ? (
            <Alert tone="danger" title={t('totp.notTurnedOn')}>
              {formError}
            </Alert>
          ) : null}
          <Field label={t('totp.code')} error={formState.errors.code?.message}>
            <input className="input mono" inputMode="numeric" autoComplete="one-time-code" {...register('code')} />
          </Field>
          <div>
            <Button type="submit" variant="primary" icon="check" loading={confirm.isPending}>
              {t('totp.turnOn')}
            </Button>
          </div>
        </div>
      </div>
    </form>
  );
}

const disableSchema = z
  .object({ password: z.string(), code: z.string().trim() })
  .refine((v) => v.password !== '' || v.code !== '', { path: ['password'], error: () => i18n.t('account:totp.passwordOrCode') });
type DisableValues = z.infer<typeof disableSchema>;

function DisableForm({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation(['account', 'common']);
  const disable = useDisableTotp();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<DisableValues>({
    resolver: zodResolver(disableSchema),
    defaultValues: { password: '', code: '' },
  });
  const onSubmit = handleSubmit(async ({ password, code }) => {
    setFormError(null);
    try {
      await disable.mutateAsync(password ? { password } : { code });
      onCancel();
    } catch (e) {
      const rest = applyServerErrors(e, setError, { known: (p) => p === 'password' || p === 'code' });
      if (isApiError(e) && e.code === 'rate_limited') setFormError(asSentence(e.message));
      else if (!isApiError(e) || e.fields.length === 0 || rest.length) setFormError(rest.join(' ') || errorMessage(e));
    }
  });
  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label={t('totp.disableLabel')}>
      {formError ? (
        <Alert tone="danger" title={t('totp.notTurnedOff')}>
          {formError}
        </Alert>
      ) : null}
      <div className="grid-2">
        <Field label={t('totp.currentPassword')} error={formState.errors.password?.message}>
          <input className="input" type="password" autoComplete="current-password" {...register('password')} />
        </Field>
        <Field label={t('totp.orCode')} error={formState.errors.code?.message} optional>
          <input className="input mono" inputMode="numeric" autoComplete="one-time-code" {...register('code')} />
        </Field>
      </div>
      <div className="row">
        <Button type="submit" variant="danger" loading={disable.isPending}>
          {t('totp.disable')}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t('common:actions.cancel')}
        </Button>
      </div>
    </form>
  );
}

/** The authenticator app (TOTP): set up with a confirming code, or turned off. */
export function TotpSection({ enabled, onRecoveryCodes }: { enabled: boolean; onRecoveryCodes: (codes: string[]) => void }) {
  const { t } = useTranslation('account');
  const begin = useBeginTotp();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [disabling, setDisabling] = useState(false);

  return (
    <section className="stack" aria-labelledby="totp-heading">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h3 id="totp-heading" className="row">
          {t('totp.heading')}{' '}
          {enabled ? (
            <Badge tone="success" icon="check">
              {t('totp.on')}
            </Badge>
          ) : (
            <Badge>{t('totp.off')}</Badge>
          )}
        </h3>
        {enabled && !disabling ? (
          <Button size="sm" variant="ghost" onClick={() => setDisabling(true)}>
            {t('totp.turnOff')}
          </Button>
        ) : null}
        {!enabled && !enrolment ? (
          <Button size="sm" variant="primary" icon="qr" loading={begin.isPending} onClick={() => begin.mutate(undefined, { onSuccess: setEnrolment })}>
            {t('totp.setUp')}
          </Button>
        ) : null}
      </div>
      {enabled && disabling ? <DisableForm onCancel={() => setDisabling(false)} /> : null}
      {!enabled && enrolment ? (
        <ConfirmForm
          enrolment={enrolment}
          onConfirmed={(codes) => {
            setEnrolment(null);
            onRecoveryCodes(codes);
          }}
        />
      ) : null}
    </section>
  );
}
