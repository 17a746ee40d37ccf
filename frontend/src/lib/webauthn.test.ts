import { describe, expect, it } from 'vitest';
import { b64urlToBytes, bytesToB64url, toCreationOptions, toRequestOptions } from './webauthn';

describe('webauthn base64url', () => {
  it('round-trips bytes, without padding and with the URL alphabet', () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xfe, 0x00, 0x01]);
    const s = bytesToB64url(bytes);
    expect(s).toBe('-__-AAE');
    expect(Array.from(b64urlToBytes(s))).toEqual(Array.from(bytes));
  });

  it("turns the server's options into the browser's", () => {
    const create = toCreationOptions({
      publicKey: {
        challenge: 'AQID',
        rp: { id: 'localhost', name: 'Gatehouse' },
        user: { id: 'dTE', name: 'admin', displayName: 'admin' },
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
        excludeCredentials: [{ id: 'BAU', type: 'public-key' }],
      },
    });
    expect(Array.from(create.challenge as Uint8Array)).toEqual([1, 2, 3]);
    expect(new TextDecoder().decode(create.user.id as Uint8Array)).toBe('u1');
    expect(Array.from(create.excludeCredentials?.[0]?.id as Uint8Array)).toEqual([4, 5]);

    const get = toRequestOptions({ publicKey: { challenge: 'AQID', userVerification: 'required' } });
    expect(get.allowCredentials).toBeUndefined();
    expect(get.userVerification).toBe('required');
  });
});
