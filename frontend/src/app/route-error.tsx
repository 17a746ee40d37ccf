import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Alert } from '@/components/ui/alert';

export function RouteError() {
  const { t } = useTranslation('app');
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : t('errors.unknown');
  return (
    <div style={{ maxWidth: 560, margin: '80px auto', padding: 16 }}>
      <Alert
        tone="danger"
        title={t('errors.somethingWrong')}
        action={
          <a className="btn btn-sm" href="/">
            {t('errors.reload')}
          </a>
        }
      >
        {message}
      </Alert>
    </div>
  );
}
