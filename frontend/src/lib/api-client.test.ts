import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '@/test/utils';
import { api, ApiError, errorMessage, setUnauthorizedHandler } from './api-client';

const credentials = { username: 'admin', password: 'wrong' };

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(null);
});

describe('api client', () => {
  it('parses the error envelope including fields and request id', async () => {
    mockFetch([
      {
        method: 'POST',
        path: '/api/services',
        status: 422,
        body: {
          error: {
            code: 'validation_failed',
            message: 'request has invalid fields',
            fields: [{ field: 'targets[0].port', message: 'must be between 1 and 65535' }],
            requestId: 'abc',
          },
        },
      },
    ]);
    const err = await api.post('/api/services', { body: { name: 'x' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(422);
    expect(e.code).toBe('validation_failed');
    expect(e.fields).toEqual([{ field: 'targets[0].port', message: 'must be between 1 and 65535' }]);
    expect(e.requestId).toBe('abc');
  });

  it('sends JSON with a content type on unsafe methods, same-origin credentials', async () => {
    const { calls } = mockFetch([{ method: 'PUT', path: '/api/config', body: { ok: true } }]);
    const settings = { adminDomain: 'a.b', defaultEntrypoints: [], defaultLifetimeSeconds: 0, globalMiddlewares: [] };
    await api.put('/api/config', { body: settings });
    expect(calls[0]!.headers['Content-Type']).toBe('application/json');
    expect(calls[0]!.credentials).toBe('same-origin');
    expect(calls[0]!.body).toEqual(settings);
  });

  it('sends an empty JSON object for POST without a body (logout)', async () => {
    const { calls } = mockFetch([{ method: 'POST', path: '/api/admin/logout', status: 204 }]);
    await expect(api.post('/api/admin/logout')).resolves.toBeUndefined();
    expect(calls[0]!.headers['Content-Type']).toBe('application/json');
  });

  it('calls the unauthorized handler on 401 unless told not to', async () => {
    mockFetch([
      { path: '/api/services', status: 401, body: { error: { code: 'unauthenticated', message: 'sign in' } } },
      { method: 'POST', path: '/api/admin/login', status: 401, body: { error: { code: 'unauthenticated', message: 'bad' } } },
    ]);
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    await expect(api.get('/api/services')).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
    await expect(api.post('/api/admin/login', { body: credentials, skipAuthRedirect: true })).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('falls back to a readable message when the body is not an envelope', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>bad gateway</html>', { status: 502 })));
    const e = (await api.get('/api/system').catch((x: unknown) => x)) as ApiError;
    expect(e.code).toBe('internal');
    expect(e.message).toMatch(/unreachable/i);
  });

  it('turns network failures into a network_error', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const e = (await api.get('/api/system').catch((x: unknown) => x)) as ApiError;
    expect(e.code).toBe('network_error');
    expect(e.status).toBe(0);
  });

  it('adds the Retry-After wait to lockout messages', async () => {
    mockFetch([
      {
        method: 'POST',
        path: '/api/admin/login',
        status: 429,
        headers: { 'Retry-After': '600' },
        body: { error: { code: 'rate_limited', message: 'Too many failed sign-in attempts.' } },
      },
    ]);
    const e = await api.post('/api/admin/login', { body: credentials, skipAuthRedirect: true }).catch((x: unknown) => x);
    expect(errorMessage(e)).toBe('Too many failed attempts. Try again in 10 minutes.');
  });

  it('fills path parameters (escaped) and the query, leaving out undefined values', async () => {
    const { calls } = mockFetch([
      { path: '/api/services/a%2Fb', body: { id: 'a/b' } },
      { path: '/api/access-log?decision=denied&limit=100', body: { items: [], capacity: 1 } },
      { method: 'DELETE', path: '/api/admin/me/2fa/totp', status: 204 },
    ]);
    await expect(api.get('/api/services/{id}', { params: { id: 'a/b' } })).resolves.toEqual({ id: 'a/b' });
    await api.get('/api/access-log', { query: { serviceId: undefined, decision: 'denied', limit: 100 } });
    await expect(api.del('/api/admin/me/2fa/totp', { body: { code: '123456' } })).resolves.toBeUndefined();
    expect(calls.map((c) => c.url)).toEqual(['/api/services/a%2Fb', '/api/access-log?decision=denied&limit=100', '/api/admin/me/2fa/totp']);
    expect(calls[2]!.body).toEqual({ code: '123456' });
  });

  it('types each call from the API description', () => {
    // Never run: tsc (npm run lint) checks that each line below is refused.
    const unchecked = () => {
      // @ts-expect-error a path the API does not have
      void api.get('/api/nope');
      // @ts-expect-error a method the path does not answer
      void api.patch('/api/config', { body: {} });
      // @ts-expect-error a path parameter left out
      void api.get('/api/services/{id}');
      // @ts-expect-error a body the operation does not take
      void api.put('/api/audit/settings', { body: { retentionDays: 'forever' } });
      // @ts-expect-error a query parameter the operation does not take
      void api.get('/api/access-log', { query: { nope: 1 } });
    };
    expect(unchecked).toBeTypeOf('function');
  });
});
