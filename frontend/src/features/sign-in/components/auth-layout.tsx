import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { Icon } from '@/components/ui/icons';
import { useSystem } from '@/lib/api/system';
import { formatVersion } from '@/lib/format';

export function AuthLayout({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
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
              Gatehouse
            </div>
            <h1 style={{ fontSize: '1.3rem' }}>{title}</h1>
            <p className="muted" style={{ margin: '6px 0 20px' }}>
              {subtitle}
            </p>
            {children}
          </div>
        </Card>
        <p className="auth-footer">Gatehouse {formatVersion(system.data?.version)} · Traefik control panel</p>
      </div>
    </main>
  );
}
