import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import type { ChannelKind } from '@/lib/api-types';

type Reason = 'refused' | 'unresolved' | 'timeout' | 'certificate' | 'credentials' | 'forbidden' | 'notFound' | 'unreachable' | 'closed' | 'serverError';

/** What a delivery error most likely means, said as a person would; null when the text is not recognised. */
export function deliveryReason(error: string): string | null {
  const e = error.toLowerCase();
  const rules: [RegExp, Reason][] = [
    [/connection refused/, 'refused'],
    [/no such host|could not be resolved|server misbehaving/, 'unresolved'],
    [/timeout|deadline exceeded|no answer in time|i\/o timeout/, 'timeout'],
    [/x509|certificate/, 'certificate'],
    [/auth|535|username and password|\b401\b|unauthori[sz]ed/, 'credentials'],
    [/\b403\b|forbidden/, 'forbidden'],
    [/\b404\b|not found/, 'notFound'],
    [/network is unreachable|no route to host|host cannot be reached/, 'unreachable'],
    [/connection reset|eof/, 'closed'],
    [/\b5\d\d\b/, 'serverError'],
  ];
  for (const [re, reason] of rules) if (re.test(e)) return i18n.t(`notifications:reasons.${reason}`);
  return null;
}


/**
 * A failed delivery as a sentence with what to do; the server's own words folded away in a
 * details element, shown once.
 */
export function DeliveryError({ error, kind, lead }: { error: string; kind: ChannelKind; lead?: string }) {
  const { t } = useTranslation(['notifications', 'components']);
  const reason = deliveryReason(error);
  const said = { lead: lead ?? t('delivery.notDelivered'), check: t(`checks.${kind}`) };
  return (
    <div className="stack-sm" data-testid="delivery-error">
      <span>
        {reason ? t('delivery.withReason', { ...said, reason }) : t('delivery.withoutReason', said)}
      </span>
      <details className="muted">
        <summary>{t('components:connectionTest.details')}</summary>
        <code className="wrap">{error}</code>
      </details>
    </div>
  );
}
