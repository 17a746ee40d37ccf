import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '@/test/utils';
import { api } from './api-client';
import { createQueryClient } from './query-client';
import { toast } from './toast';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('query client errors', () => {
  it("toasts the server's own message when a write is refused for the role", async () => {
    const message = 'viewers have read-only access; an administrator with the admin role can make this change';
    mockFetch([{ method: 'PUT', path: '/api/config', status: 403, body: { error: { code: 'forbidden', message } } }]);
    const error = vi.spyOn(toast, 'error');
    const client = createQueryClient();
    const m = client.getMutationCache().build(client, { mutationFn: () => api.put('/api/config', {}) });
    await expect(m.execute(undefined)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    expect(error).toHaveBeenCalledWith(message, undefined, undefined);
  });

  it.each([
    ['a 5xx carries its request id', 500, 'r-500'],
    ['a 4xx does not', 409, undefined],
  ])('%s', async (_name, status, want) => {
    mockFetch([{ method: 'PUT', path: '/api/config', status, body: { error: { code: status === 500 ? 'internal' : 'conflict', message: 'nope', requestId: 'r-500' } } }]);
    const error = vi.spyOn(toast, 'error');
    const client = createQueryClient();
    const m = client.getMutationCache().build(client, { mutationFn: () => api.put('/api/config', {}) });
    await expect(m.execute(undefined)).rejects.toMatchObject({ status });
    expect(error).toHaveBeenCalledWith('nope', undefined, want);
  });
});
