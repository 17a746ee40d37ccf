import { useSyncExternalStore } from 'react';

type ToastKind = 'success' | 'error' | 'info';
export type Toast = { id: number; kind: ToastKind; message: string; detail?: string; requestId?: string };

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

/** Drops every error toast: called when a later write succeeds, so stale errors go. */
export function dismissErrorToasts(): void {
  if (!toasts.some((t) => t.kind === 'error')) return;
  toasts = toasts.filter((t) => t.kind !== 'error');
  emit();
}

function push(kind: ToastKind, message: string, detail?: string, requestId?: string): number {
  const id = nextId++;
  // Collapse identical toasts fired together (e.g. several queries failing at once).
  if (toasts.some((t) => t.kind === kind && t.message === message)) return id;
  toasts = [...toasts.slice(-3), { id, kind, message, detail, requestId }];
  emit();
  window.setTimeout(() => dismissToast(id), requestId ? 15000 : kind === 'error' ? 7000 : 4000);
  return id;
}

/** Toasts can be raised from anywhere, including the query cache outside React. */
export const toast = {
  success: (message: string, detail?: string) => push('success', message, detail),
  /** requestId: the server's id for a 5xx, shown with a copy button. */
  error: (message: string, detail?: string, requestId?: string) => push('error', message, detail, requestId),
  info: (message: string, detail?: string) => push('info', message, detail),
};

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(subscribe, () => toasts, () => toasts);
}
