import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
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
          ) : list.length === 0 && !backups.isError ? (
            <EmptyState icon="box" title="No backups yet">
              Scheduled backups appear here; take one now with Back up now.
            </EmptyState>
          ) : (
            <div className="table-wrap">
              <table className="table stacked" aria-label="Backups">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Size</th>
                    <th scope="col">Taken</th>
                    <th scope="col">Trigger</th>
                    <th scope="col" className="actions"><span className="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((b) => (
                    <tr key={b.name}>
                      <td className="mono small">{b.name}</td>
                      <td data-label="Size">{formatSize(b.size)}</td>
                      <td data-label="Taken">
                        <span title={formatDateTime(b.createdAt)}>{formatRelative(b.createdAt)}</span>
                      </td>
                      <td data-label="Trigger">
                        <Badge tone={b.trigger === 'scheduled' ? 'neutral' : 'info'}>{TRIGGERS[b.trigger] ?? b.trigger}</Badge>
                      </td>
                      <td className="actions">
                        {canWrite ? (
                          <div className="row" style={{ justifyContent: 'flex-end' }}>
                            <a className="btn btn-sm" href={downloadUrl(b.name)} download={b.name} aria-label={`Download ${b.name}`}>
                              <Icon name="external" size={14} /> Download
                            </a>
                            <Button size="sm" variant="ghost" iconOnly icon="trash" aria-label={`Delete ${b.name}`} onClick={() => setDeleting(b)} />
                          </div>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
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
