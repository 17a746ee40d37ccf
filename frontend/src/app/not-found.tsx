import { ButtonLink } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/states';

export function NotFoundPage() {
  return (
    <EmptyState icon="search" title="Page not found" action={<ButtonLink to="/" variant="primary">Back to the dashboard</ButtonLink>}>
      The page you asked for does not exist.
    </EmptyState>
  );
}
