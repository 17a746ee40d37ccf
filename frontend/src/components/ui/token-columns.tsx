import { formatDateTime, formatRelative } from '@/lib/format';
import i18n from '@/lib/i18n';
import { Badge, type Tone } from './badge';
import type { Column } from './data-table';

/** What every kind of token shows of its life: machine tokens and API tokens alike. */
export type TokenLife = {
  status: 'active' | 'expired' | 'revoked';
  expiresAt: string | null;
  lastUsedAt: string | null;
  lastUsedAddress: string;
};

const statusTone: Record<TokenLife['status'], { tone: Tone; label: 'active' | 'expired' | 'revoked' }> = {
  active: { tone: 'success', label: 'active' },
  expired: { tone: 'neutral', label: 'expired' },
  revoked: { tone: 'danger', label: 'revoked' },
};

const time = (iso: string | null) => (iso ? Date.parse(iso) : null);

/** The Status, Expires and Last used columns of a token table. */
export function tokenLifeColumns<T extends TokenLife>(): Column<T>[] {
  const t = i18n.getFixedT(null, 'components');
  return [
    {
      id: 'status',
      header: i18n.t('common:words.status'),
      cell: (row) => {
        const st = statusTone[row.status];
        return <Badge tone={st?.tone ?? 'neutral'}>{st ? t(`tokens.status.${st.label}`) : row.status}</Badge>;
      },
    },
    {
      id: 'expires',
      header: t('tokens.expires'),
      className: 'small nowrap',
      cellProps: (row) => ({ title: row.expiresAt ? formatDateTime(row.expiresAt) : undefined }),
      sortValue: (row) => time(row.expiresAt),
      cell: (row) => (row.expiresAt ? formatRelative(row.expiresAt) : t('tokens.never')),
    },
    {
      id: 'lastUsed',
      header: t('tokens.lastUsed'),
      className: 'small',
      sortValue: (row) => time(row.lastUsedAt),
      cell: (row) =>
        row.lastUsedAt ? (
          <div className="stack-sm" style={{ gap: 0 }}>
            <span title={formatDateTime(row.lastUsedAt)}>{formatRelative(row.lastUsedAt)}</span>
            {row.lastUsedAddress ? <span className="mono muted">{row.lastUsedAddress}</span> : null}
          </div>
        ) : (
          <span className="faint">{t('tokens.never')}</span>
        ),
    },
  ];
}
