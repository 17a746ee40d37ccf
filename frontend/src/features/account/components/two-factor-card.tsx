import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/modal';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { useRegenerateRecoveryCodes, useTwoFactorStatus } from '../api/two-factor';
import { PasskeysSection } from './passkeys-section';
import { ProofProvider } from './reauth-dialog';
import { RecoveryCodes } from './recovery-codes';
import { TotpSection } from './totp-section';

/** The second factors; changing them asks for a fresh proof of who one is when needed. */
export function TwoFactorCard() {
  return (
    <ProofProvider>
      <TwoFactorCardBody />
    </ProofProvider>
  );
}

function TwoFactorCardBody() {
  const status = useTwoFactorStatus();
  const regenerate = useRegenerateRecoveryCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirmRegenerate, setConfirmRegenerate] = useState(false);
  const st = status.data;

  return (
    <Card>
      <CardHeader title="Two-factor sign-in" description="After your password, a code from an authenticator app or a passkey." />
      <div className="card-body stack">
        {status.isError ? (
          <ErrorState error={status.error} onRetry={() => status.refetch()} />
        ) : !st ? (
          <LoadingRows rows={2} />
        ) : (
          <>
            {st.required && !st.enrolled ? (
              <Alert tone="warning" title="Two-factor sign-in is required">
                This panel requires a second factor for every administrator. Set up an authenticator app or add a passkey
                to continue.
              </Alert>
            ) : null}
            {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}
            <TotpSection enabled={st.totp} onRecoveryCodes={setCodes} />
            <PasskeysSection available={st.passkeysAvailable} problem={st.passkeysProblem} />
            {st.enrolled ? (
              <section className="stack" aria-labelledby="recovery-heading">
                <h3 id="recovery-heading">Recovery codes</h3>
                <div className="row" style={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
                  <p className="muted small">
                    {st.recoveryCodesLeft === 0
                      ? 'No recovery codes left: generate some in case you lose your authenticator.'
                      : `${st.recoveryCodesLeft} unused recovery code${st.recoveryCodesLeft === 1 ? '' : 's'} left.`}
                  </p>
                  <Button size="sm" icon="refresh" onClick={() => setConfirmRegenerate(true)}>
                    Generate new codes
                  </Button>
                </div>
              </section>
            ) : null}
          </>
        )}
      </div>
      <ConfirmDialog
        open={confirmRegenerate}
        title="Generate new recovery codes?"
        message="Your current recovery codes stop working."
        confirmLabel="Generate"
        loading={regenerate.isPending}
        onCancel={() => setConfirmRegenerate(false)}
        onConfirm={() =>
          regenerate.mutate(undefined, {
            onSuccess: setCodes,
            onSettled: () => setConfirmRegenerate(false),
          })
        }
      />
    </Card>
  );
}
