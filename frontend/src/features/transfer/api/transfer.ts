import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, type ApiAnswer, type FieldError } from '@/lib/api-client';
import type { ExportRequest, ImportMode } from '@/lib/api-types';
import i18n from '@/lib/i18n';

export const PASSPHRASE_MIN = 12;

/** Turns a failed answer into the client's one error type (the envelope, when there is one). */
async function failure(res: Response): Promise<ApiError> {
  let err: { code?: string; message?: string; fields?: FieldError[]; requestId?: string } | undefined;
  try {
    err = ((await res.json()) as { error?: typeof err }).error;
  } catch {
    err = undefined;
  }
  return new ApiError({
    status: res.status,
    code: (err?.code as ApiError['code']) ?? 'unknown',
    message: err?.message || i18n.t('common:errors.status', { status: res.status }),
    fields: Array.isArray(err?.fields) ? err.fields : [],
    requestId: err?.requestId,
  });
}

async function send(path: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(path, { credentials: 'same-origin', ...init });
  } catch {
    throw new ApiError({ status: 0, code: 'network_error', message: i18n.t('common:errors.network') });
  }
  if (!res.ok) throw await failure(res);
  return res;
}

/** The file name the server gave the export, or a sensible default. */
function fileName(res: Response): string {
  const m = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '');
  return m?.[1] ?? 'gatehouse-export.json';
}

/** Asks for an export (with secrets sealed when asked) and hands it to the browser as a download. */
export async function downloadExport(req: ExportRequest): Promise<string> {
  const res = await send('/api/export', {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(req),
  });
  const name = fileName(res);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return name;
}

export function useExport() {
  return useMutation({ mutationFn: downloadExport });
}

export type ImportRequest = { file: Blob; mode: ImportMode; apply: boolean; digest?: string; passphrase?: string };

/** Sends the file as is; without apply the answer is the plan and nothing changes. */
export async function importFile({ file, mode, apply, digest, passphrase }: ImportRequest) {
  const q = new URLSearchParams({ format: 'auto', mode, apply: String(apply) });
  if (digest) q.set('digest', digest);
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/octet-stream' };
  if (passphrase) headers['X-Gatehouse-Passphrase'] = passphrase;
  const res = await send(`/api/import?${q.toString()}`, { method: 'POST', headers, body: file });
  return (await res.json()) as ApiAnswer<'/api/import', 'post'>;
}

export function useImport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: importFile,
    // An applied import may have changed anything the panel shows.
    onSuccess: (plan) => (plan.applied ? qc.invalidateQueries() : undefined),
  });
}

/** Whether a file is a Gatehouse export carrying sealed secrets (then a passphrase is needed). */
export async function hasSealedSecrets(file: Blob): Promise<boolean> {
  const text = await new Promise<string>((resolve) => {
    const r = new FileReader();
    r.onload = () => resolve(typeof r.result === 'string' ? r.result : '');
    r.onerror = () => resolve('');
    r.readAsText(file);
  });
  return text.includes('"sealed"') && text.includes('"gatehouse-export"');
}
