import type { ChannelKind } from '@/lib/api-types';

/** What a delivery error most likely means, said as a person would; null when the text is not recognised. */
export function deliveryReason(error: string): string | null {
  const e = error.toLowerCase();
  const rules: [RegExp, string][] = [
    [/connection refused/, 'the server refused the connection'],
    [/no such host|could not be resolved|server misbehaving/, 'the host name could not be resolved'],
    [/timeout|deadline exceeded|no answer in time|i\/o timeout/, 'the server did not answer in time'],
    [/x509|certificate/, "the server's TLS certificate is not trusted"],
    [/auth|535|username and password|\b401\b|unauthori[sz]ed/, 'the server refused the credentials'],
    [/\b403\b|forbidden/, 'the server refused the request (forbidden)'],
    [/\b404\b|not found/, 'the address was not found'],
    [/network is unreachable|no route to host|host cannot be reached/, 'the host cannot be reached from the panel'],
    [/connection reset|eof/, 'the server closed the connection'],
    [/\b5\d\d\b/, 'the server answered with an error'],
  ];
  for (const [re, reason] of rules) if (re.test(e)) return reason;
  return null;
}

const checks: Record<ChannelKind, string> = {
  ntfy: "Check the server URL and topic, and the access token if the topic is protected.",
  gotify: "Check the server URL and the application token.",
  discord: 'Check the webhook URL (Discord: channel settings → Integrations → Webhooks).',
  slack: 'Check the incoming webhook URL.',
  telegram: "Check the bot token and the chat id, and that the bot was added to the chat.",
  email: 'Check the SMTP server, port, security and credentials, and the addresses.',
  webhook: 'Check the URL and any headers the receiver expects.',
};

/**
 * A failed delivery as a sentence with what to do; the server's own words folded away in a
 * details element, shown once.
 */
export function DeliveryError({ error, kind, lead = 'Not delivered' }: { error: string; kind: ChannelKind; lead?: string }) {
  const reason = deliveryReason(error);
  return (
    <div className="stack-sm" data-testid="delivery-error">
      <span>
        {lead}
        {reason ? `: ${reason}.` : '.'} {checks[kind]} The panel must be able to reach the service.
      </span>
      <details className="muted">
        <summary>Details</summary>
        <code className="wrap">{error}</code>
      </details>
    </div>
  );
}
