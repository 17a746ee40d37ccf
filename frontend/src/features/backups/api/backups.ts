import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import type { BackupSchedule } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export const downloadUrl = (name: string) => `/api/backups/${encodeURIComponent(name)}/download`;

export function useBackups() {
  // The list shows ages and the next run: refresh it now and then.
  return useQuery({ queryKey: qk.backups(), queryFn: () => api.get('/api/backups'), refetchInterval: 60_000 });
}

export function useCreateBackup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/backups'),
    meta: { success: i18n.t('backups:toasts.written') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.backups() }),
  });
}

export function useDeleteBackup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.del('/api/backups/{name}', { params: { name } }),
    meta: { success: i18n.t('backups:toasts.deleted') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.backups() }),
  });
}

export function usePutSchedule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BackupSchedule) => api.put('/api/backups/schedule', { body }),
    meta: { quiet: true, success: i18n.t('backups:toasts.schedule') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.backups() }),
  });
}

/** Bytes in human units: 1536 → "1.5 KiB". */
export function formatSize(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  if (i === 0) return i18n.t('common:bytes.bytes', { count: bytes });
  return `${v >= 10 ? Math.round(v) : Math.round(v * 10) / 10} ${units[i]}`;
}
