import { formatDateTime, formatRelative } from '@/lib/format';
import { Badge, type Tone } from './badge';

/** What every kind of token shows of its life: machine tokens and API tokens alike. */
export type TokenLife = {
  status: 'active' | 'expired' | 'revoked';
  expiresAt: string | null;
  lastUsedAt: string | null;
  lastUsedAddress: string;
};

const statusTone: Record<TokenLife['status'], { tone: Tone; label: string }> = {
  active: { tone: 'success', label: 'Active' },
  expired: { tone: 'neutral', label: 'Expired' },
  revoked: { tone: 'danger', label: 'Revoked' },
};

/** The Status, Expires and Last used cells of a token's table row. */
export function TokenLifeCells({ token: t }: { token: TokenLife }) {
  const st = statusTone[t.status] ?? { tone: 'neutral' as Tone, label: t.status };
  return (
    <>
      <td data-label="Status">
        <Badge tone={st.tone}>{st.label}</Badge>
      </td>
      <td className="small nowrap" data-label="Expires" title={t.expiresAt ? formatDateTime(t.expiresAt) : undefined}>
        {t.expiresAt ? formatRelative(t.expiresAt) : 'never'}
      </td>
      <td className="small" data-label="Last used">
        {t.lastUsedAt ? (
          <div className="stack-sm" style={{ gap: 0 }}>
            <span title={formatDateTime(t.lastUsedAt)}>{formatRelative(t.lastUsedAt)}</span>
            {t.lastUsedAddress ? <span className="mono muted">{t.lastUsedAddress}</span> : null}
          </div>
        ) : (
          <span className="faint">never</span>
        )}
      </td>
    </>
  );
}
