import { ButtonLink } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/states';

/** Any address the app does not know: a page of its own, with its heading, and the way back. */
export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <Card>
        <EmptyState icon="search" title="Nothing at this address" action={<ButtonLink to="/" variant="primary">Back to the dashboard</ButtonLink>}>
          The page you asked for does not exist.
        </EmptyState>
      </Card>
    </>
  );
}
