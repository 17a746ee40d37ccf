/**
 * IP addresses and CIDR ranges as the server reads them (Go's net/netip ParseAddr and
 * ParsePrefix): IPv4 as four decimal parts 0–255 without leading zeros, IPv6 in any of
 * its textual forms, a prefix length up to 32 or 128 without leading zeros. Zones
 * (`fe80::1%eth0`) are refused, as the server refuses them.
 */
const v4part = /^(0|[1-9]\d{0,2})$/;

function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => v4part.test(p) && Number(p) <= 255);
}

function isIPv6(s: string): boolean {
  if (!s.includes(':') || s.includes('%') || !/^[0-9a-fA-F:.]+$/.test(s)) return false;
  const dot = s.lastIndexOf(':');
  let tail = 0;
  let head = s;
  if (s.includes('.')) {
    if (!isIPv4(s.slice(dot + 1))) return false;
    head = s.slice(0, dot + 1) + '0:0';
    tail = 0;
  }
  const double = head.split('::');
  if (double.length > 2) return false;
  const groups = (x: string) => (x === '' ? [] : x.split(':'));
  const left = groups(double[0] ?? '');
  const right = double.length === 2 ? groups(double[1] ?? '') : [];
  const all = [...left, ...right];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  const n = all.length + tail;
  return double.length === 2 ? n <= 7 : n === 8;
}

/** An IP address (v4 or v6), as netip.ParseAddr accepts it. */
export function isIpAddress(s: string): boolean {
  return isIPv4(s) || isIPv6(s);
}

/** A CIDR range, as netip.ParsePrefix accepts it. */
export function isCidr(s: string): boolean {
  const i = s.indexOf('/');
  if (i < 0) return false;
  const addr = s.slice(0, i);
  const bits = s.slice(i + 1);
  if (!/^(0|[1-9]\d{0,2})$/.test(bits)) return false;
  if (isIPv4(addr)) return Number(bits) <= 32;
  return isIPv6(addr) && Number(bits) <= 128;
}

/** An address or a range: what client-IP rules and access-rule sources take. */
export function isIpOrCidr(s: string): boolean {
  return isIpAddress(s) || isCidr(s);
}
