import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/ui/card';
import { ServiceForm } from './service-form';

export function ServiceNewPage() {
  const { t } = useTranslation('services');
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        breadcrumb={
          <>
            <Link to="/services">{t('list.title')}</Link> <span aria-hidden="true">/</span> <span>{t('newPage.crumb')}</span>
          </>
        }
        title={t('newPage.title')}
        description={t('newPage.description')}
      />
      <ServiceForm onSaved={(s) => navigate(`/services/${s.id}?created=1`)} />
    </>
  );
}
