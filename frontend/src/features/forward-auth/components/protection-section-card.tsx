import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import type { IconName } from '@/components/ui/icons';

/** The frame of one protection on the Security tab: title, what it does, whether it is on. */
export function SectionCard({ title, description, on, icon, children, footer }: { title: string; description: ReactNode; on: boolean; icon: IconName; children: ReactNode; footer?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardHeader title={title} description={description} actions={on ? <Badge tone="success" icon={icon}>{t('words.on')}</Badge> : <Badge icon="power">{t('words.off')}</Badge>} />
      <div className="card-body stack">{children}</div>
      {footer ? <div className="card-footer">{footer}</div> : null}
    </Card>
  );
}
