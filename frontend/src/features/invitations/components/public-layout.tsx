import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { Icon } from '@/components/ui/icons';

/** The frame of the pages a person opens from a link, without an account yet. */
export function PublicLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { t } = useTranslation('invitations');
  return (
    <main className="auth-page">
      <div className="auth-card">
        <Card>
          <div className="card-body">
            <div className="auth-brand">
              <span className="brand-mark">
                <Icon name="shield" size={18} />
              </span>
              {t('brand')}
            </div>
            <h1 style={{ fontSize: '1.3rem' }}>{title}</h1>
            {subtitle ? (
              <p className="muted" style={{ margin: '6px 0 20px' }}>
                {subtitle}
              </p>
            ) : null}
            {children}
          </div>
        </Card>
      </div>
    </main>
  );
}
