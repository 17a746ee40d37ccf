export type ParsedTarget = { scheme: 'http' | 'https' | 'h2c'; host: string; port: number };

/**
 * A pasted upstream URL ("http://10.0.0.5:3000", "https://nas.lan/", "[fd00::5]:8443" with a
 * scheme) split into the target's scheme, host and port; null when the text is not a URL with
 * a scheme the panel proxies to. The port defaults to the scheme's (80, 443). A path, query or
 * credentials are not part of a target: such text is left alone.
 */
export function parseTargetURL(text: string): ParsedTarget | null {
  const t = text.trim();
  const m = /^(https?|h2c):\/\/(.+)$/i.exec(t);
  if (!m) return null;
  const scheme = (m[1] ?? '').toLowerCase() as ParsedTarget['scheme'];
  let rest = (m[2] ?? '').replace(/\/$/, '');
  if (!rest || /[/?#@\s]/.test(rest)) return null;
  let host: string;
  let portText: string;
  if (rest.startsWith('[')) {
    const end = rest.indexOf(']');
    if (end < 0) return null;
    host = rest.slice(1, end);
    rest = rest.slice(end + 1);
    if (rest && !rest.startsWith(':')) return null;
    portText = rest.slice(1);
  } else {
    const i = rest.lastIndexOf(':');
    if (i >= 0 && rest.indexOf(':') !== i) return null; // a bare IPv6 address needs brackets
    host = i >= 0 ? rest.slice(0, i) : rest;
    portText = i >= 0 ? rest.slice(i + 1) : '';
  }
  if (!host) return null;
  let port = scheme === 'https' ? 443 : 80;
  if (portText !== '') {
    if (!/^\d{1,5}$/.test(portText)) return null;
    port = Number(portText);
    if (port < 1 || port > 65535) return null;
  }
  return { scheme, host: host.toLowerCase(), port };
}
