import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { Icon } from '@/components/ui/icons';
import { ConfirmDialog } from '@/components/ui/modal';
import { ReadOnlyNote } from '@/components/ui/read-only';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { useCanWrite } from '@/lib/api/system';
import { formatDateTime, formatRelative } from '@/lib/format';
import type { Backup } from '@/lib/api-types';
import { downloadUrl, formatSize, useBackups, useCreateBackup, useDeleteBackup } from '../api/backups';
import { ScheduleCard } from './schedule-card';

const TRIGGERS = ['scheduled', 'manual', 'cli'] as const;

export function BackupsPage() {
  const { t } = useTranslation(['backups', 'common']);
  const canWrite = useCanWrite();
  const backups = useBackups();
  const create = useCreateBackup();
  const del = useDeleteBackup();
  const [deleting, setDeleting] = useState<Backup | null>(null);
  const status = backups.data;
  const list = status?.backups ?? [];
  const columns: Column<Backup>[] = [
    { id: 'name', header: t('common:words.name'), className: 'mono small', sortValue: (b) => b.name, cell: (b) => b.name },
    { id: 'size', header: t('list.size'), sortValue: (b) => b.size, cell: (b) => formatSize(b.size) },
    {
      id: 'taken',
      header: t('list.taken'),
      sortValue: (b) => Date.parse(b.createdAt),
      cell: (b) => <span title={formatDateTime(b.createdAt)}>{formatRelative(b.createdAt)}</span>,
    },
    {
      id: 'trigger',
      header: t('list.trigger'),
      cell: (b) => (
        <Badge tone={b.trigger === 'scheduled' ? 'neutral' : 'info'}>
          {(TRIGGERS as readonly string[]).includes(b.trigger) ? t(`list.triggers.${b.trigger as (typeof TRIGGERS)[number]}`) : b.trigger}
        </Badge>
      ),
    },
    actionsColumn((b) =>
      canWrite ? (
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <a className="btn btn-sm" href={downloadUrl(b.name)} download={b.name} aria-label={t('list.download', { name: b.name })}>
            <Icon name="download" size={14} /> {t('common:actions.download')}
          </a>
          <Button size="sm" variant="ghost" iconOnly icon="trash" aria-label={t('list.delete', { name: b.name })} onClick={() => setDeleting(b)} />
        </div>
      ) : null,
    ),
  ];
  return (
    <>
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          canWrite ? (
            <Button variant="primary" icon="plus" loading={create.isPending} onClick={() => create.mutate()}>
              {t('page.now')}
            </Button>
          ) : null
        }
      />
      <div className="stack">
        {!canWrite ? <ReadOnlyNote>{t('page.readOnly')}</ReadOnlyNote> : null}
        {backups.isError ? <ErrorState error={backups.error} onRetry={() => backups.refetch()} title={t('page.loadFailed')} /> : null}
        {status?.lastError ? (
          <Alert tone="danger" title={t('page.lastFailed', { when: formatRelative(status.lastError.at) })}>
            {status.lastError.message}
          </Alert>
        ) : null}
        <Card>
          {backups.isPending ? (
            <LoadingRows />
          ) : (
            <DataTable
              data={list}
              rowKey={(b) => b.name}
              columns={columns}
              label={t('page.title')}
              empty={
                backups.isError ? undefined : (
                  <EmptyState icon="box" title={t('page.empty')}>
                    {t('page.emptyText')}
                  </EmptyState>
                )
              }
            />
          )}
        </Card>
        {status ? <ScheduleCard status={status} /> : null}
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title={t('page.deleteTitle', { name: deleting?.name ?? '' })}
        message={
          deleting?.trigger === 'scheduled'
            ? t('page.deleteScheduled')
            : t('page.deleteManual')
        }
        confirmLabel={t('common:actions.delete')}
        danger
        loading={del.isPending}
        onConfirm={async () => {
          if (deleting) await del.mutateAsync(deleting.name).catch(() => undefined);
          setDeleting(null);
        }}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
