import { useState } from 'react';
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

const TRIGGERS: Record<string, string> = { scheduled: 'Scheduled', manual: 'By hand', cli: 'Command line' };

export function BackupsPage() {
  const canWrite = useCanWrite();
  const backups = useBackups();
  const create = useCreateBackup();
  const del = useDeleteBackup();
  const [deleting, setDeleting] = useState<Backup | null>(null);
  const status = backups.data;
  const list = status?.backups ?? [];
  const columns: Column<Backup>[] = [
    { id: 'name', header: 'Name', className: 'mono small', sortValue: (b) => b.name, cell: (b) => b.name },
    { id: 'size', header: 'Size', sortValue: (b) => b.size, cell: (b) => formatSize(b.size) },
    {
      id: 'taken',
      header: 'Taken',
      sortValue: (b) => Date.parse(b.createdAt),
      cell: (b) => <span title={formatDateTime(b.createdAt)}>{formatRelative(b.createdAt)}</span>,
    },
    { id: 'trigger', header: 'Trigger', cell: (b) => <Badge tone={b.trigger === 'scheduled' ? 'neutral' : 'info'}>{TRIGGERS[b.trigger] ?? b.trigger}</Badge> },
    actionsColumn((b) =>
      canWrite ? (
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <a className="btn btn-sm" href={downloadUrl(b.name)} download={b.name} aria-label={`Download ${b.name}`}>
            <Icon name="download" size={14} /> Download
          </a>
          <Button size="sm" variant="ghost" iconOnly icon="trash" aria-label={`Delete ${b.name}`} onClick={() => setDeleting(b)} />
        </div>
      ) : null,
    ),
  ];
  return (
    <>
      <PageHeader
        title="Backups"
        description="Each backup holds the database, the panel's age key and managed mode's encrypted DNS credentials: whoever has one can read every secret the panel keeps. Store downloads safely."
        actions={
          canWrite ? (
            <Button variant="primary" icon="plus" loading={create.isPending} onClick={() => create.mutate()}>
              Back up now
            </Button>
          ) : null
        }
      />
      <div className="stack">
        {!canWrite ? <ReadOnlyNote>An administrator with the admin role can take, download and delete backups.</ReadOnlyNote> : null}
        {backups.isError ? <ErrorState error={backups.error} onRetry={() => backups.refetch()} title="Could not load the backups" /> : null}
        {status?.lastError ? (
          <Alert tone="danger" title={`The last scheduled backup failed ${formatRelative(status.lastError.at)}`}>
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
              label="Backups"
              empty={
                backups.isError ? undefined : (
                  <EmptyState icon="box" title="No backups yet">
                    Scheduled backups appear here; take one now with Back up now.
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
        title={`Delete ${deleting?.name ?? ''}?`}
        message={
          deleting?.trigger === 'scheduled'
            ? 'The backup file is removed from the backup directory.'
            : 'This backup was taken by hand and is never pruned: once deleted it is gone.'
        }
        confirmLabel="Delete"
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
