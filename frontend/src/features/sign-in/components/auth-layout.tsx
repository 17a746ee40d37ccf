import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '@/components/ui/card';
import { Icon } from '@/components/ui/icons';
import { useSystem } from '@/lib/api/system';
import { formatVersion } from '@/lib/format';

/** The product's name: the same in every language. */
const productName = 'Gatehouse';

export function AuthLayout({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  const { t } = useTranslation('sign-in');
  const system = useSystem();
  return (
    <main className="auth-page">
      <div className="auth-card">
        <Card>
          <div className="card-body">
            <div className="auth-brand">
              <span className="brand-mark">
                <Icon name="shield" size={18} />
              </span>
              {productName}
            </div>
            <h1 style={{ fontSize: '1.3rem' }}>{title}</h1>
            <p className="muted" style={{ margin: '6px 0 20px' }}>
              {subtitle}
            </p>
            {children}
          </div>
        </Card>
        <p className="auth-footer">{t('layout.footer', { version: formatVersion(system.data?.version) })}</p>
      </div>
    </main>
  );
}
