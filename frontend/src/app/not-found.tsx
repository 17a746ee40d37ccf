import { useTranslation } from 'react-i18next';
import { ButtonLink } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/states';

/** Any address the app does not know: a page of its own, with its heading, and the way back. */
export function NotFoundPage() {
  const { t } = useTranslation('app');
  return (
    <>
      <PageHeader title={t('notFound.title')} />
      <Card>
        <EmptyState
          icon="search"
          title={t('notFound.nothingHere')}
          action={
            <ButtonLink to="/" variant="primary">
              {t('notFound.back')}
            </ButtonLink>
          }
        >
          {t('notFound.text')}
        </EmptyState>
      </Card>
    </>
  );
}
