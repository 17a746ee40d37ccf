import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { applyServerErrors, fieldLabel, toFormPath } from './form-errors';

describe('server field errors', () => {
  it('converts JSON paths to form paths', () => {
    expect(toFormPath('targets[0].port')).toBe('targets.0.port');
    expect(toFormPath('certConfigs[1].sans[2]')).toBe('certConfigs.1.sans.2');
    expect(toFormPath('name')).toBe('name');
  });

  it('sets known fields and returns the rest', () => {
    const setError = vi.fn();
    const err = new ApiError({
      status: 422,
      code: 'validation_failed',
      message: 'bad',
      fields: [
        { field: 'name', message: 'required' },
        { field: 'mystery', message: 'odd' },
      ],
    });
    const rest = applyServerErrors(err, setError, { known: (p) => p === 'name' });
    expect(setError).toHaveBeenCalledWith('name', { type: 'server', message: 'required' }, { shouldFocus: true });
    expect(rest).toEqual(['Mystery: odd']);
    expect(err.fieldsShown).toBe(false);
  });

  it('returns a conflict message that has no field', () => {
    const rest = applyServerErrors(new ApiError({ status: 409, code: 'conflict', message: 'hostname a.b belongs to X' }), vi.fn());
    expect(rest).toEqual(['hostname a.b belongs to X']);
  });

  it('marks the error shown when every field matched', () => {
    const err = new ApiError({ status: 422, code: 'validation_failed', message: 'bad', fields: [{ field: 'name', message: 'required' }] });
    expect(applyServerErrors(err, vi.fn())).toEqual([]);
    expect(err.fieldsShown).toBe(true);
  });

  it.each([
    ['resolvers[0].email', 'Resolver 1 e-mail'],
    ['targets.1.port', 'Target 2 port'],
    ['config.resolvers[2].dnsResolvers', 'Config resolver 3 DNS resolvers'],
    ['policies[0].clientIp', 'Policy 1 client IP'],
    ['name', 'Name'],
  ])('labels %s as %s', (path, label) => {
    expect(fieldLabel(path)).toBe(label);
  });
});
