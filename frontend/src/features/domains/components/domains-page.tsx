import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
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
  const { t } = useTranslation(['domains', 'common']);
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
      header: t('list.columns.domain'),
      sortValue: (d) => d.domain,
      cell: (d) => (
        <div className="stack-sm" style={{ gap: 2 }}>
          <span className="row" style={{ gap: 8 }}>
            <strong className="mono">{d.domain}</strong>
            {d.isDefault ? <Badge tone="primary" icon="check">{t('list.default')}</Badge> : null}
          </span>
          {d.name && d.name !== d.domain ? <span className="muted small">{d.name}</span> : null}
        </div>
      ),
    },
    {
      id: 'certificates',
      header: t('list.columns.certificates'),
      cell: (d) => (
        <div className="row" style={{ gap: 6 }}>
          {d.certResolver ? <Badge tone="success" icon="lock">{d.certResolver}</Badge> : <Badge icon="alert">{t('list.noResolver')}</Badge>}
          {d.wildcard ? <Badge tone="info">{t('list.wildcard')}</Badge> : null}
          {d.certConfigs?.length ? <Badge>{t('list.extra', { count: d.certConfigs.length })}</Badge> : null}
        </div>
      ),
    },
    { id: 'services', header: t('list.columns.services'), className: 'muted', sortValue: (d) => usage(d.id), cell: (d) => usage(d.id) },
    actionsColumn((d) =>
      canWrite ? (
        <>
          <Button size="sm" variant="ghost" icon="edit" onClick={() => setEditing(d)} aria-label={t('list.editLabel', { domain: d.domain })}>
            {t('common:actions.edit')}
          </Button>
          <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setDeleting(d)} aria-label={t('list.deleteLabel', { domain: d.domain })} title={t('common:actions.delete')} />
        </>
      ) : null,
    ),
  ];
  return (
    <>
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          canWrite ? (
            <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>
              {t('list.add')}
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
                <EmptyState
                  icon="globe"
                  title={t('list.emptyTitle')}
                  action={
                    canWrite ? (
                      <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>
                        {t('list.addFirst')}
                      </Button>
                    ) : undefined
                  }
                >
                  <Trans t={t} i18nKey="list.emptyBody" components={{ code: <code /> }} />
                </EmptyState>
              )
            }
          />
        )}
      </Card>
      <DomainFormModal open={editing !== null} domain={editing && editing !== 'new' ? editing : undefined} first={list.length === 0} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={!!deleting}
        title={t('list.deleteTitle', { domain: deleting?.domain ?? '' })}
        message={
          deletingUsers.length > 0
            ? t('list.inUse', { count: deletingUsers.length, names: joinNames(deletingUsers) })
            : services.isSuccess
              ? t('list.unused')
              : t('list.willBeRemoved')
        }
        blockedReason={deletingUsers.length > 0 ? t('list.blocked') : undefined}
        confirmLabel={t('list.deleteConfirm')}
        danger
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}
