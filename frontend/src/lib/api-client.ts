import type { components, paths } from './api-schema';
import i18n from '@/lib/i18n';

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

/** What a failed call says when the server's answer has no message of its own. */
function fallbackMessage(status: number): string {
  switch (status) {
    case 400: return i18n.t('errors.400');
    case 401: return i18n.t('errors.401');
    case 403: return i18n.t('errors.403');
    case 404: return i18n.t('errors.404');
    case 409: return i18n.t('errors.409');
    case 413: return i18n.t('errors.413');
    case 422: return i18n.t('errors.422');
    case 429: return i18n.t('errors.429');
    case 500: return i18n.t('errors.500');
    case 502: return i18n.t('errors.502');
    case 503: return i18n.t('errors.503');
  }
  return i18n.t('errors.status', { status });
}

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
        : fallbackMessage(res.status),
    fields,
    requestId: typeof err?.requestId === 'string' ? err.requestId : undefined,
    retryAfter,
  });
}

// Calls are typed from the generated `paths`: the path template picks the operation, whose
// path and query parameters, JSON request body and success answers give the call's types,
// so a path, method or body the API does not have is a type error.

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The operation `paths[P][M]`; never when the API has none. */
type Operation<P extends keyof paths, M extends Method> = Extract<paths[P][M], { responses: unknown }>;

/** The path templates that answer method M. */
type PathsWith<M extends Method> = {
  [P in keyof paths]: [Operation<P, M>] extends [never] ? never : P;
}[keyof paths];

type SuccessStatus = 200 | 201 | 202 | 204;
type JsonContent<R> = R extends { content: { 'application/json': infer T } } ? T : undefined;

/** What a call resolves to: the JSON of its success answers (undefined for 204). */
type ResponseBody<O> = O extends { responses: infer Rs } ? JsonContent<Rs[Extract<keyof Rs, SuccessStatus>]> : never;

/** The JSON answer of `method path`, for the calls that cannot go through `api` (files up and down). */
export type ApiAnswer<P extends PathsWith<M>, M extends Method> = ResponseBody<Operation<P, M>>;

type OpParameters<O> = O extends { parameters: infer X } ? X : never;
type Part<X, K extends string> = K extends keyof X ? NonNullable<X[K]> : never;

/** The JSON request body the operation takes; never when it takes none. */
type RequestBody<O> = [Part<Part<Part<O, 'requestBody'>, 'content'>, 'application/json'>] extends [never]
  ? never
  : Part<Part<Part<O, 'requestBody'>, 'content'>, 'application/json'>;

type PathInit<O> = [Part<OpParameters<O>, 'path'>] extends [never] ? { params?: never } : { params: Part<OpParameters<O>, 'path'> };
type QueryInit<O> = [Part<OpParameters<O>, 'query'>] extends [never]
  ? { query?: never }
  : OpParameters<O> extends { query: unknown }
    ? { query: Part<OpParameters<O>, 'query'> }
    : { query?: Part<OpParameters<O>, 'query'> };
type BodyInit<O> = [RequestBody<O>] extends [never]
  ? { body?: never }
  : O extends { requestBody: unknown }
    ? { body: RequestBody<O> }
    : { body?: RequestBody<O> };

type CallOptions = {
  signal?: AbortSignal;
  /** Do not trigger the global 401 redirect (login form, `me` probe). */
  skipAuthRedirect?: boolean;
};

/** A call's second argument: `params` fill the path's `{name}`s, `query` the query string. */
type CallInit<O> = PathInit<O> & QueryInit<O> & BodyInit<O> & CallOptions;
type CallArgs<O> = Partial<CallInit<O>> extends CallInit<O> ? [init?: CallInit<O>] : [init: CallInit<O>];

type Init = CallOptions & { params?: Record<string, string | number>; query?: object; body?: unknown };

/** The URL of a call: the path with its parameters filled in, then the query (undefined values left out). */
function callUrl(path: string, init: Pick<Init, 'params' | 'query'> = {}): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = init.params?.[name];
    if (v === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(v));
  });
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(init.query ?? {}))
    for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined && item !== null) q.append(k, String(item));
  const s = q.toString();
  return s ? `${filled}?${s}` : filled;
}

/**
 * Same-origin JSON request. Unsafe methods always send `Content-Type: application/json`
 * (the backend's CSRF check relies on Origin/Sec-Fetch-Site, which the browser sets); a
 * POST without a body sends `{}`.
 */
async function request(method: Method, path: string, init: Init = {}): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: string | undefined;
  if (method !== 'get') {
    headers['Content-Type'] = 'application/json';
    const payload = method === 'post' ? (init.body ?? {}) : init.body;
    body = payload === undefined ? undefined : JSON.stringify(payload);
  }
  let res: Response;
  try {
    res = await fetch(callUrl(path, init), {
      method: method.toUpperCase(),
      headers,
      body,
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError({ status: 0, code: 'network_error', message: i18n.t('errors.network') });
  }
  if (!res.ok) {
    const err = await toApiError(res);
    if (res.status === 401 && !init.skipAuthRedirect) onUnauthorized?.();
    if (res.status === 403 && err.code === 'two_factor_required') onTwoFactorRequired?.();
    throw err;
  }
  if (res.status === 204) return undefined;
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

function caller<M extends Method>(method: M) {
  return <P extends PathsWith<M>>(path: P, ...[init]: CallArgs<Operation<P, M>>) =>
    request(method, path, init as Init) as Promise<ResponseBody<Operation<P, M>>>;
}

/**
 * The API's calls, e.g. `api.get('/api/services/{id}', { params: { id } })`: each resolves
 * to the success answer's JSON and rejects with an ApiError.
 */
export const api = {
  get: caller('get'),
  post: caller('post'),
  put: caller('put'),
  patch: caller('patch'),
  del: caller('delete'),
};

/** Human text for an error, with the Retry-After hint for lockouts. */
export function errorMessage(e: unknown): string {
  if (isApiError(e)) {
    if (e.code === 'rate_limited' && e.retryAfter) {
      // Our own wording from Retry-After, so the wait reads the same everywhere.
      const mins = Math.ceil(e.retryAfter / 60);
      return i18n.t('errors.lockedOut', { count: mins });
    }
    return e.message;
  }
  if (e instanceof Error) return e.message;
  return i18n.t('errors.unknown');
}
