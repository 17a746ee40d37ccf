import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
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
import { useBeginTotp, useConfirmTotp, useDisableTotp } from '../api/two-factor';

const codeSchema = z.object({ code: z.string().trim().regex(/^\d{6}$/, 'Enter the 6-digit code from the app') });
type CodeValues = z.infer<typeof codeSchema>;

function ConfirmForm({ enrolment, onConfirmed }: { enrolment: TotpEnrolment; onConfirmed: (codes: string[]) => void }) {
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
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Confirm authenticator app">
      <p>Scan the QR code with an authenticator app, or type the secret into it, then enter the code it shows.</p>
      <div className="row" style={{ alignItems: 'flex-start', flexWrap: 'wrap', gap: 16 }}>
        <div className="qr" style={{ width: 262, height: 262 }}>
          <img src={enrolment.qrCode} width={240} height={240} alt="QR code for the authenticator app" />
        </div>
        <div className="stack" style={{ flex: 1, minWidth: 220 }}>
          <div className="input-row">
            <Field label="Secret" hint="For apps that cannot scan." className="grow">
              <input className="input mono" value={enrolment.secret} readOnly />
            </Field>
            <CopyButton text={enrolment.secret} />
          </div>
          {formError ? (
            <Alert tone="danger" title="Not turned on">
              {formError}
            </Alert>
          ) : null}
          <Field label="Code from the app" error={formState.errors.code?.message}>
            <input className="input mono" inputMode="numeric" autoComplete="one-time-code" {...register('code')} />
          </Field>
          <div>
            <Button type="submit" variant="primary" icon="check" loading={confirm.isPending}>
              Turn on
            </Button>
          </div>
        </div>
      </div>
    </form>
  );
}

const disableSchema = z
  .object({ password: z.string(), code: z.string().trim() })
  .refine((v) => v.password !== '' || v.code !== '', { path: ['password'], message: 'Enter your password or a code from the app' });
type DisableValues = z.infer<typeof disableSchema>;

function DisableForm({ onCancel }: { onCancel: () => void }) {
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
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Turn off authenticator app">
      {formError ? (
        <Alert tone="danger" title="Not turned off">
          {formError}
        </Alert>
      ) : null}
      <div className="grid-2">
        <Field label="Current password" error={formState.errors.password?.message}>
          <input className="input" type="password" autoComplete="current-password" {...register('password')} />
        </Field>
        <Field label="Or a code from the app" error={formState.errors.code?.message} optional>
          <input className="input mono" inputMode="numeric" autoComplete="one-time-code" {...register('code')} />
        </Field>
      </div>
      <div className="row">
        <Button type="submit" variant="danger" loading={disable.isPending}>
          Turn off authenticator app
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** The authenticator app (TOTP): set up with a confirming code, or turned off. */
export function TotpSection({ enabled, onRecoveryCodes }: { enabled: boolean; onRecoveryCodes: (codes: string[]) => void }) {
  const begin = useBeginTotp();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [disabling, setDisabling] = useState(false);

  return (
    <section className="stack" aria-labelledby="totp-heading">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h3 id="totp-heading" className="row">
          Authenticator app {enabled ? <Badge tone="success" icon="check">On</Badge> : <Badge>Off</Badge>}
        </h3>
        {enabled && !disabling ? (
          <Button size="sm" variant="ghost" onClick={() => setDisabling(true)}>
            Turn off
          </Button>
        ) : null}
        {!enabled && !enrolment ? (
          <Button size="sm" variant="primary" icon="qr" loading={begin.isPending} onClick={() => begin.mutate(undefined, { onSuccess: setEnrolment })}>
            Set up authenticator app
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
