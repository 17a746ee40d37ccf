import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/ui/card';
import { ServiceForm } from './service-form';

export function ServiceNewPage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        breadcrumb={
          <>
            <Link to="/services">Services</Link> <span aria-hidden="true">/</span> <span>New</span>
          </>
        }
        title="New service"
        description="Publish an upstream through Traefik. You can add sign-in and shared links after creating it."
      />
      <ServiceForm onSaved={(s) => navigate(`/services/${s.id}?created=1`)} />
    </>
  );
}
