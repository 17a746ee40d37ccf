import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/ui/card';
import { AccessLogTable } from './access-log-table';

export function AccessLogPage() {
  const { t } = useTranslation('access');
  return (
    <>
      <PageHeader title={t('log.title')} description={t('log.pageDescription')} />
      <AccessLogTable title={t('log.requests')} />
    </>
  );
}
