import { formatDateTime, formatRelative } from '@/lib/format';
import { Badge, type Tone } from './badge';
import type { Column } from './data-table';

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

const time = (iso: string | null) => (iso ? Date.parse(iso) : null);

/** The Status, Expires and Last used columns of a token table. */
export function tokenLifeColumns<T extends TokenLife>(): Column<T>[] {
  return [
    {
      id: 'status',
      header: 'Status',
      cell: (t) => {
        const st = statusTone[t.status] ?? { tone: 'neutral' as Tone, label: t.status };
        return <Badge tone={st.tone}>{st.label}</Badge>;
      },
    },
    {
      id: 'expires',
      header: 'Expires',
      className: 'small nowrap',
      cellProps: (t) => ({ title: t.expiresAt ? formatDateTime(t.expiresAt) : undefined }),
      sortValue: (t) => time(t.expiresAt),
      cell: (t) => (t.expiresAt ? formatRelative(t.expiresAt) : 'never'),
    },
    {
      id: 'lastUsed',
      header: 'Last used',
      className: 'small',
      sortValue: (t) => time(t.lastUsedAt),
      cell: (t) =>
        t.lastUsedAt ? (
          <div className="stack-sm" style={{ gap: 0 }}>
            <span title={formatDateTime(t.lastUsedAt)}>{formatRelative(t.lastUsedAt)}</span>
            {t.lastUsedAddress ? <span className="mono muted">{t.lastUsedAddress}</span> : null}
          </div>
        ) : (
          <span className="faint">never</span>
        ),
    },
  ];
}
