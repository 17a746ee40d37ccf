import type { components } from './api-schema';

type ErrorBody = components['schemas']['ErrorEnvelope']['error'];

/** Field error as sent in the error envelope: `field` is the JSON path (e.g. `targets[0].port`). */
export type FieldError = NonNullable<ErrorBody['fields']>[number];

/** The envelope's codes, and the two the client makes up when there is no envelope. */
export type ErrorCode = ErrorBody['code'] | 'network_error' | 'unknown';

/** The single error type every API call rejects with. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly fields: FieldError[];
  readonly requestId?: string;
  /** Seconds from the Retry-After header (429). */
  readonly retryAfter?: number;
  /**
   * Set by the form that showed every field error on its own field: the global error
   * handler then raises no toast, since the page already says it.
   */
  fieldsShown = false;

  constructor(init: {
    status: number;
    code: ErrorCode;
    message: string;
    fields?: FieldError[];
    requestId?: string;
    retryAfter?: number;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields ?? [];
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler | null = null;
let onTwoFactorRequired: UnauthorizedHandler | null = null;

/** Registered once by the app: called whenever an authenticated call answers 401. */
export function setUnauthorizedHandler(fn: UnauthorizedHandler | null): void {
  onUnauthorized = fn;
}

/**
 * Registered once by the app: called whenever a call answers 403 two_factor_required (the
 * panel requires a second factor and this administrator has none yet).
 */
export function setTwoFactorRequiredHandler(fn: UnauthorizedHandler | null): void {
  onTwoFactorRequired = fn;
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Do not trigger the global 401 redirect (login form, `me` probe). */
  skipAuthRedirect?: boolean;
};

const fallbackMessages: Record<number, string> = {
  400: 'The request was not understood.',
  401: 'Please sign in again.',
  403: 'You are not allowed to do that.',
  404: 'Not found.',
  409: 'This conflicts with existing data.',
  413: 'The request is too large.',
  422: 'Some fields are invalid.',
  429: 'Too many attempts. Try again later.',
  500: 'The server hit an error.',
  502: 'The server is unreachable.',
  503: 'The server is unavailable.',
};

function codeFromStatus(status: number): ErrorCode {
  switch (status) {
    case 400: return 'invalid_request';
    case 401: return 'unauthenticated';
    case 403: return 'forbidden';
    case 404: return 'not_found';
    case 409: return 'conflict';
    case 413: return 'payload_too_large';
    case 422: return 'validation_failed';
    case 429: return 'rate_limited';
    default: return status >= 500 ? 'internal' : 'unknown';
  }
}

async function toApiError(res: Response): Promise<ApiError> {
  let envelope: unknown;
  try {
    envelope = await res.json();
  } catch {
    envelope = null;
  }
  const retryHeader = res.headers.get('Retry-After');
  const retryAfter = retryHeader && /^\d+$/.test(retryHeader) ? Number(retryHeader) : undefined;
  const err =
    envelope && typeof envelope === 'object' && 'error' in envelope
      ? (envelope as { error: Record<string, unknown> }).error
      : null;
  const fields = Array.isArray(err?.fields)
    ? (err.fields as unknown[]).filter(
        (f): f is FieldError =>
          !!f && typeof f === 'object' && typeof (f as FieldError).field === 'string' &&
          typeof (f as FieldError).message === 'string',
      )
    : [];
  return new ApiError({
    status: res.status,
    code: typeof err?.code === 'string' ? (err.code as ErrorCode) : codeFromStatus(res.status),
    message:
      typeof err?.message === 'string' && err.message
        ? err.message
        : (fallbackMessages[res.status] ?? `Request failed (${res.status}).`),
    fields,
    requestId: typeof err?.requestId === 'string' ? err.requestId : undefined,
    retryAfter,
  });
}

/**
 * Same-origin JSON request. Unsafe methods always send `Content-Type: application/json`
 * (the backend's CSRF check relies on Origin/Sec-Fetch-Site, which the browser sets).
 */
async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: string | undefined;
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body, credentials: 'same-origin', signal: opts.signal });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError({ status: 0, code: 'network_error', message: 'Cannot reach the server.' });
  }
  if (!res.ok) {
    const err = await toApiError(res);
    if (res.status === 401 && !opts.skipAuthRedirect) onUnauthorized?.();
    if (res.status === 403 && err.code === 'two_factor_required') onTwoFactorRequired?.();
    throw err;
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string, opts?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...opts, method: 'GET' }),
  post: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body: unknown) => request<T>(path, { method: 'PUT', body }),
  patch: <T>(path: string, body: unknown) => request<T>(path, { method: 'PATCH', body }),
  del: <T = void>(path: string, body?: unknown) => request<T>(path, { method: 'DELETE', body }),
};

/** Human text for an error, with the Retry-After hint for lockouts. */
export function errorMessage(e: unknown): string {
  if (isApiError(e)) {
    if (e.code === 'rate_limited' && e.retryAfter) {
      // Our own wording from Retry-After, so the wait reads the same everywhere.
      const mins = Math.ceil(e.retryAfter / 60);
      return `Too many failed attempts. Try again in ${mins} minute${mins === 1 ? '' : 's'}.`;
    }
    return e.message;
  }
  if (e instanceof Error) return e.message;
  return 'Something went wrong.';
}
