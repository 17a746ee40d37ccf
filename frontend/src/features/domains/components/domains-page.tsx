import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { ConfirmDialog } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { Domain } from '@/lib/api-types';
import { useDomains, useServices } from '@/lib/api/resources';
import { useCanWrite } from '@/lib/api/system';
import { joinNames } from '@/lib/format';
import { useDeleteDomain } from '../api/domains';
import { DomainFormModal } from './domain-form';

export function DomainsPage() {
  const canWrite = useCanWrite();
  const domains = useDomains();
  const services = useServices();
  const del = useDeleteDomain();
  const [editing, setEditing] = useState<Domain | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Domain | null>(null);
  const users = (id: string) => (services.data ?? []).filter((s) => s.domainId === id).map((s) => s.name).sort((a, b) => a.localeCompare(b));
  const usage = (id: string) => users(id).length;
  const deletingUsers = deleting ? users(deleting.id) : [];
  const list = domains.data ?? [];
  const columns: Column<Domain>[] = [
    {
      id: 'domain',
      header: 'Domain',
      sortValue: (d) => d.domain,
      cell: (d) => (
        <div className="stack-sm" style={{ gap: 2 }}>
          <span className="row" style={{ gap: 8 }}>
            <strong className="mono">{d.domain}</strong>
            {d.isDefault ? <Badge tone="primary" icon="check">Default</Badge> : null}
          </span>
          {d.name && d.name !== d.domain ? <span className="muted small">{d.name}</span> : null}
        </div>
      ),
    },
    {
      id: 'certificates',
      header: 'Certificates',
      cell: (d) => (
        <div className="row" style={{ gap: 6 }}>
          {d.certResolver ? <Badge tone="success" icon="lock">{d.certResolver}</Badge> : <Badge icon="alert">No resolver</Badge>}
          {d.wildcard ? <Badge tone="info">Wildcard</Badge> : null}
          {d.certConfigs?.length ? <Badge>{`+${d.certConfigs.length} extra`}</Badge> : null}
        </div>
      ),
    },
    { id: 'services', header: 'Services', className: 'muted', sortValue: (d) => usage(d.id), cell: (d) => usage(d.id) },
    actionsColumn((d) =>
      canWrite ? (
        <>
          <Button size="sm" variant="ghost" icon="edit" onClick={() => setEditing(d)} aria-label={`Edit ${d.domain}`}>
            Edit
          </Button>
          <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setDeleting(d)} aria-label={`Delete ${d.domain}`} title="Delete" />
        </>
      ) : null,
    ),
  ];
  return (
    <>
      <PageHeader
        title="Domains"
        description="Base domains for your services, with the certificate resolver Traefik uses for them."
        actions={
          canWrite ? (
            <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>
              Add domain
            </Button>
          ) : null
        }
      />
      {domains.isError ? <ErrorState error={domains.error} onRetry={() => domains.refetch()} /> : null}
      <Card>
        {domains.isPending ? (
          <LoadingRows />
        ) : (
          <DataTable
            data={list}
            rowKey={(d) => d.id}
            columns={columns}
            empty={
              domains.isError ? undefined : (
                <EmptyState icon="globe" title="No domains yet" action={canWrite ? <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>Add your first domain</Button> : undefined}>
                  Add the domain your services live under (for example <code>example.com</code>); services then only need a subdomain.
                </EmptyState>
              )
            }
          />
        )}
      </Card>
      <DomainFormModal open={editing !== null} domain={editing && editing !== 'new' ? editing : undefined} first={list.length === 0} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={!!deleting}
        title={`Delete ${deleting?.domain ?? ''}?`}
        message={
          deletingUsers.length > 0
            ? `${deletingUsers.length === 1 ? '1 service uses' : `${deletingUsers.length} services use`} this domain: ${joinNames(deletingUsers)}.`
            : services.isSuccess
              ? 'No service uses this domain. It will be removed from the panel.'
              : 'It will be removed from the panel.'
        }
        blockedReason={deletingUsers.length > 0 ? 'Move these services to another domain or delete them first.' : undefined}
        confirmLabel="Delete domain"
        danger
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}
