import { useTranslation } from 'react-i18next';
import { ButtonLink } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/states';

export function NotFoundPage() {
  const { t } = useTranslation('app');
  return (
    <EmptyState
      icon="search"
      title={t('notFound.title')}
      action={
        <ButtonLink to="/" variant="primary">
          {t('notFound.back')}
        </ButtonLink>
      }
    >
      {t('notFound.text')}
    </EmptyState>
  );
}
