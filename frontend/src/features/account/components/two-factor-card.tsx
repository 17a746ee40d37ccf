import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('account');
  const status = useTwoFactorStatus();
  const regenerate = useRegenerateRecoveryCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirmRegenerate, setConfirmRegenerate] = useState(false);
  const st = status.data;

  return (
    <Card>
      <CardHeader title={t('twoFactor.title')} description={t('twoFactor.description')} />
      <div className="card-body stack">
        {status.isError ? (
          <ErrorState error={status.error} onRetry={() => status.refetch()} />
        ) : !st ? (
          <LoadingRows rows={2} />
        ) : (
          <>
            {st.required && !st.enrolled ? (
              <Alert tone="warning" title={t('twoFactor.requiredTitle')}>
                {t('twoFactor.requiredText')}
              </Alert>
            ) : null}
            {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}
            <TotpSection enabled={st.totp} onRecoveryCodes={setCodes} />
            <PasskeysSection available={st.passkeysAvailable} problem={st.passkeysProblem} />
            {st.enrolled ? (
              <section className="stack" aria-labelledby="recovery-heading">
                <h3 id="recovery-heading">{t('twoFactor.recoveryHeading')}</h3>
                <div className="row" style={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
                  <p className="muted small">
                    {st.recoveryCodesLeft === 0
                      ? t('twoFactor.noRecoveryCodes')
                      : t('twoFactor.recoveryCodesLeft', { count: st.recoveryCodesLeft })}
                  </p>
                  <Button size="sm" icon="refresh" onClick={() => setConfirmRegenerate(true)}>
                    {t('twoFactor.generateCodes')}
                  </Button>
                </div>
              </section>
            ) : null}
          </>
        )}
      </div>
      <ConfirmDialog
        open={confirmRegenerate}
        title={t('twoFactor.regenerateTitle')}
        message={t('twoFactor.regenerateMessage')}
        confirmLabel={t('twoFactor.regenerateConfirm')}
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
