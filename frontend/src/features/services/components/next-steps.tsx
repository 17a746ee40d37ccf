import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import type { Service } from '@/lib/api-types';

/** What to do after creating a service: protect it, test it, and where Traefik's view of it is. */
export function NextSteps({ service }: { service: Service }) {
  const { t } = useTranslation('services');
  const host = service.fqdns?.find((f) => !f.startsWith('*.'));
  return (
    <Alert tone="success" title={t('nextSteps.title', { name: service.name })}>
      <div data-testid="next-steps">
        <p style={{ margin: '0 0 6px' }}>{t('nextSteps.intro')}</p>
        <ol style={{ margin: 0, paddingLeft: 20 }}>
          <li>
            <Trans t={t} i18nKey="nextSteps.protect" components={{ a: <Link to={`/services/${service.id}/security`} /> }} />
          </li>
          <li>
            {host ? (
              <Trans
                t={t}
                i18nKey="nextSteps.testWithHost"
                values={{ host }}
                components={{
                  open: <a href={`https://${host}`} target="_blank" rel="noreferrer noopener" />,
                  a: <Link to={`/services/${service.id}/access`} />,
                }}
              />
            ) : (
              <Trans t={t} i18nKey="nextSteps.test" components={{ a: <Link to={`/services/${service.id}/access`} /> }} />
            )}
          </li>
          <li>
            <Trans t={t} i18nKey="nextSteps.config" components={{ a: <Link to={`/services/${service.id}/config`} /> }} />
          </li>
        </ol>
      </div>
    </Alert>
  );
}
