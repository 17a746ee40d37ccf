import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { ConfirmDeleteDialog } from '@/components/ui/confirm-delete-dialog';
import { actionsColumn, type Column } from '@/components/ui/data-table';
import { Icon } from '@/components/ui/icons';
import { ListPage, RowActions } from '@/components/ui/list-page';
import { ReadOnlyNote } from '@/components/ui/read-only';
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
        <RowActions remove={{ label: t('list.delete', { name: b.name }), onClick: () => setDeleting(b) }}>
          <a className="btn btn-sm" href={downloadUrl(b.name)} download={b.name} aria-label={t('list.download', { name: b.name })}>
            <Icon name="download" size={14} /> {t('common:actions.download')}
          </a>
        </RowActions>
      ) : null,
    ),
  ];
  return (
    <>
      <ListPage
        title={t('page.title')}
        description={t('page.description')}
        create={canWrite ? { label: t('page.now'), onClick: () => create.mutate(), loading: create.isPending } : undefined}
        query={backups}
        errorTitle={t('page.loadFailed')}
        notes={!canWrite ? <ReadOnlyNote>{t('page.readOnly')}</ReadOnlyNote> : null}
        alerts={
          status?.lastError ? (
            <Alert tone="danger" title={t('page.lastFailed', { when: formatRelative(status.lastError.at) })}>
              {status.lastError.message}
            </Alert>
          ) : null
        }
        table={{ data: list, rowKey: (b) => b.name, columns, label: t('page.title') }}
        emptyIcon="box"
        emptyTitle={t('page.empty')}
        emptyText={t('page.emptyText')}
      >
        {status ? <ScheduleCard status={status} /> : null}
      </ListPage>
      <ConfirmDeleteDialog
        item={deleting}
        title={t('page.deleteTitle', { name: deleting?.name ?? '' })}
        message={deleting?.trigger === 'scheduled' ? t('page.deleteScheduled') : t('page.deleteManual')}
        loading={del.isPending}
        onDelete={(b) => del.mutateAsync(b.name)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
