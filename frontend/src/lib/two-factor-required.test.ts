import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '@/test/utils';
import { api, setTwoFactorRequiredHandler } from './api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setTwoFactorRequiredHandler(null);
});

describe('two_factor_required', () => {
  it('calls the registered handler on 403 two_factor_required, not on other 403s', async () => {
    mockFetch([
      { path: '/api/services', status: 403, body: { error: { code: 'two_factor_required', message: 'set up a second factor' } } },
      { path: '/api/config', status: 403, body: { error: { code: 'forbidden', message: 'no' } } },
    ]);
    const handler = vi.fn();
    setTwoFactorRequiredHandler(handler);
    await expect(api.get('/api/config')).rejects.toMatchObject({ code: 'forbidden' });
    expect(handler).not.toHaveBeenCalled();
    await expect(api.get('/api/services')).rejects.toMatchObject({ status: 403, code: 'two_factor_required' });
    expect(handler).toHaveBeenCalledTimes(1);
  });
});
