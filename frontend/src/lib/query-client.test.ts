import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '@/test/utils';
import { api, ApiError } from './api-client';
import { applyServerErrors } from './form-errors';
import { createQueryClient } from './query-client';
import { toast, useToasts } from './toast';
import { renderHook } from '@testing-library/react';

const save = () => api.put('/api/audit/settings', { body: { retentionDays: 1 } });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('query client errors', () => {
  it("toasts the server's own message when a write is refused for the role", async () => {
    const message = 'viewers have read-only access; an administrator with the admin role can make this change';
    mockFetch([{ method: 'PUT', path: '/api/audit/settings', status: 403, body: { error: { code: 'forbidden', message } } }]);
    const error = vi.spyOn(toast, 'error');
    const client = createQueryClient();
    const m = client.getMutationCache().build(client, { mutationFn: () => save() });
    await expect(m.execute(undefined)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    expect(error).toHaveBeenCalledWith(message, undefined, undefined);
  });

  it.each([
    ['a 5xx carries its request id', 500, 'r-500'],
    ['a 4xx does not', 409, undefined],
  ])('%s', async (_name, status, want) => {
    mockFetch([{ method: 'PUT', path: '/api/audit/settings', status, body: { error: { code: status === 500 ? 'internal' : 'conflict', message: 'nope', requestId: 'r-500' } } }]);
    const error = vi.spyOn(toast, 'error');
    const client = createQueryClient();
    const m = client.getMutationCache().build(client, { mutationFn: () => save() });
    await expect(m.execute(undefined)).rejects.toMatchObject({ status });
    expect(error).toHaveBeenCalledWith('nope', undefined, want);
  });

  const invalid = { error: { code: 'validation_failed', message: 'validation failed', fields: [{ field: 'retentionDays', message: 'must be at least 1' }, { field: 'resolvers[0].email', message: 'must be an e-mail address' }] } };

  it('raises no toast for a 422 whose every field error the form shows', async () => {
    mockFetch([{ method: 'PUT', path: '/api/audit/settings', status: 422, body: invalid }]);
    const error = vi.spyOn(toast, 'error');
    const client = createQueryClient();
    const m = client.getMutationCache().build(client, { mutationFn: () => save() });
    const e = await m.execute(undefined).catch((x: unknown) => x);
    expect(applyServerErrors(e, vi.fn())).toEqual([]);
    await new Promise((r) => setTimeout(r, 5));
    expect(error).not.toHaveBeenCalled();
  });

  it('words field errors with no field on the page by label, not by path', async () => {
    mockFetch([{ method: 'PUT', path: '/api/audit/settings', status: 422, body: invalid }]);
    const error = vi.spyOn(toast, 'error');
    const client = createQueryClient();
    const m = client.getMutationCache().build(client, { mutationFn: () => save() });
    const e = await m.execute(undefined).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    await new Promise((r) => setTimeout(r, 5));
    expect(error).toHaveBeenCalledWith('2 fields need attention', 'Retention days: must be at least 1 · Resolver 1 e-mail: must be an e-mail address');
  });

  it('dismisses error toasts when a later write succeeds', async () => {
    mockFetch([{ method: 'PUT', path: '/api/audit/settings', status: 200, body: {} }]);
    const { result } = renderHook(() => useToasts());
    toast.error('Cannot reach the server.');
    await vi.waitFor(() => expect(result.current.some((t) => t.kind === 'error')).toBe(true));
    const client = createQueryClient();
    const m = client.getMutationCache().build(client, { mutationFn: () => save() });
    await m.execute(undefined);
    await vi.waitFor(() => expect(result.current.some((t) => t.kind === 'error')).toBe(false));
  });
});
