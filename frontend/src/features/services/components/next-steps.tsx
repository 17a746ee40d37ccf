import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import type { Service } from '@/lib/api-types';

/** What to do after creating a service: protect it, test it, and where Traefik's view of it is. */
export function NextSteps({ service }: { service: Service }) {
  const host = service.fqdns?.find((f) => !f.startsWith('*.'));
  return (
    <Alert tone="success" title={`${service.name} is created`}>
      <div data-testid="next-steps">
        <p style={{ margin: '0 0 6px' }}>Traefik serves it at its next fetch of the configuration, usually within seconds. Next:</p>
        <ol style={{ margin: 0, paddingLeft: 20 }}>
          <li>
            <Link to={`/services/${service.id}/security`}>Protect it</Link>: a password (basic auth), single sign-on or shared links.
          </li>
          <li>
            Test it:{' '}
            {host ? (
              <>
                <a href={`https://${host}`} target="_blank" rel="noreferrer noopener">
                  open https://{host} ↗
                </a>
                , or{' '}
              </>
            ) : null}
            <Link to={`/services/${service.id}/access`}>check who gets in</Link> with the access rules' tester.
          </li>
          <li>
            <Link to={`/services/${service.id}/config`}>See the configuration Traefik gets</Link> for it.
          </li>
        </ol>
      </div>
    </Alert>
  );
}
