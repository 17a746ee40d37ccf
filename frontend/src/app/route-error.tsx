import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Alert } from '@/components/ui/alert';

export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : 'Unknown error';
  return (
    <div style={{ maxWidth: 560, margin: '80px auto', padding: 16 }}>
      <Alert tone="danger" title="Something went wrong" action={<a className="btn btn-sm" href="/">Reload</a>}>
        {message}
      </Alert>
    </div>
  );
}
