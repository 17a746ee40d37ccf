// The codes of an authenticator app, computed from the secret the panel shows.
import { createHmac } from 'node:crypto';

/** RFC 4648 base32 (no padding), as otpauth secrets are written. */
function base32(secret: string) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP: HMAC-SHA1 over the 30-second step, dynamically truncated to six digits. */
export function totp(secret: string, step: number) {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32(secret)).update(msg).digest();
  const off = mac.readUInt8(mac.length - 1) & 0x0f;
  return String((mac.readUInt32BE(off) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

export const stepNow = () => Math.floor(Date.now() / 30_000);
