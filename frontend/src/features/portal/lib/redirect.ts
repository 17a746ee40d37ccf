/**
 * Where the portal goes after sign-in: `rd` only when it is an absolute URL on this very
 * origin (same scheme, host and port) whose path starts with `/`; anything else (another
 * host, a protocol-relative or scheme-less value, javascript:, credentials in the URL)
 * falls back to the launcher.
 */
export function safeRedirect(rd: string | null, origin: string): string {
  const fallback = '/';
  if (!rd || rd.length > 2048) return fallback;
  let url: URL;
  try {
    url = new URL(rd);
  } catch {
    return fallback;
  }
  if (url.origin !== origin || url.username || url.password) return fallback;
  if (!url.pathname.startsWith('/') || url.pathname.startsWith('//')) return fallback;
  return url.pathname + url.search + url.hash;
}

// The URL parser drops tabs and newlines, so "/\t/evil.example" would become "//evil.example".
function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * A portal address the API hands back for the browser to open (a device's `signInAgain`):
 * only a relative path on this origin, starting with a single `/`; anything else (an absolute
 * or protocol-relative URL, `/\host`, a scheme, control characters) gives null.
 */
export function samePortalPath(path: string | null | undefined, origin: string): string | null {
  if (!path || path.length > 2048 || !path.startsWith('/')) return null;
  if (path.startsWith('//') || path.startsWith('/\\') || hasControl(path)) return null;
  let url: URL;
  try {
    url = new URL(path, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.username || url.password) return null;
  // Dot segments can leave "//host" once resolved ("/.//evil.example"): that would leave the portal.
  if (url.pathname.startsWith('//')) return null;
  return url.pathname + url.search + url.hash;
}
