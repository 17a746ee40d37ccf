import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '@/components/ui/card';
import { Icon } from '@/components/ui/icons';
import { usePortalInfo } from '../api/portal';

/** The portal's look: the admin's name, logo and accent colour on the panel's light and dark themes. */
export function usePortalStyle(): CSSProperties {
  const accent = usePortalInfo().data?.accentColor;
  if (!accent || !/^#[0-9a-f]{6}$/i.test(accent)) return {};
  return {
    '--primary': accent,
    '--primary-hover': `color-mix(in srgb, ${accent} 85%, black)`,
    '--primary-soft': `color-mix(in srgb, ${accent} 12%, var(--surface))`,
  } as CSSProperties;
}

export function PortalBrand() {
  const { t } = useTranslation('portal');
  const info = usePortalInfo().data;
  const name = info?.name || t('brand.fallbackName');
  return (
    <div className="auth-brand">
      {info?.logo ? (
        <img src={info.logo} alt="" width={32} height={32} style={{ objectFit: 'contain', borderRadius: 6 }} />
      ) : (
        <span className="brand-mark">
          <Icon name="shield" size={18} />
        </span>
      )}
      {name}
    </div>
  );
}

/** A single card in the middle of the page: sign-in and the other one-step pages. */
export function PortalCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const style = usePortalStyle();
  return (
    <main className="auth-page" style={style}>
      <div className="auth-card">
        <Card>
          <div className="card-body">
            <PortalBrand />
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
