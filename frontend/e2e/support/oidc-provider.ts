// A minimal OpenID provider for the panel's SSO scenario: discovery, an authorization
// endpoint that signs `user` in at once (no login page), a token endpoint that checks the
// code, redirect URI and PKCE verifier and returns an RS256-signed ID token with the nonce,
// the keys, and userinfo. Only what the panel's client (go-oidc + x/oauth2) uses.
import { createHash, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';

const b64url = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

export interface OidcProvider {
  issuer: string;
  close: () => Promise<void>;
}

export async function startOidcProvider({ clientId, clientSecret, user }: { clientId: string; clientSecret: string; user: Record<string, unknown> }): Promise<OidcProvider> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'e2e', use: 'sig', alg: 'RS256' };
  const codes = new Map<string, { nonce: string | null; challenge: string | null; redirect: string | null }>();
  let issuer = '';

  const sign = (claims: Record<string, unknown>) => {
    const head = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'e2e' }));
    const body = b64url(JSON.stringify(claims));
    const sig = createSign('RSA-SHA256').update(`${head}.${body}`).sign(privateKey);
    return `${head}.${body}.${b64url(sig)}`;
  };
  const json = (res: http.ServerResponse, status: number, v: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(v));
  };
  const readForm = (req: http.IncomingMessage) =>
    new Promise<URLSearchParams>((resolve) => {
      let data = '';
      req.on('data', (d) => (data += d));
      req.on('end', () => resolve(new URLSearchParams(data)));
    });
  const clientOf = (req: http.IncomingMessage, form: URLSearchParams) => {
    const auth = req.headers.authorization ?? '';
    if (auth.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(auth.slice(6), 'base64').toString().split(':').map(decodeURIComponent);
      return { id, secret };
    }
    return { id: form.get('client_id'), secret: form.get('client_secret') };
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        userinfo_endpoint: `${issuer}/userinfo`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (req.method === 'GET' && url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const q = url.searchParams;
      if (q.get('client_id') !== clientId || q.get('code_challenge_method') !== 'S256') return json(res, 400, { error: 'invalid_request' });
      const code = b64url(randomBytes(24));
      codes.set(code, { nonce: q.get('nonce'), challenge: q.get('code_challenge'), redirect: q.get('redirect_uri') });
      const back = new URL(q.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = await readForm(req);
      const client = clientOf(req, form);
      const code = form.get('code') ?? '';
      const c = codes.get(code);
      codes.delete(code);
      const verifier = form.get('code_verifier') ?? '';
      if (client.id !== clientId || client.secret !== clientSecret) return json(res, 401, { error: 'invalid_client' });
      if (!c || c.redirect !== form.get('redirect_uri') || b64url(createHash('sha256').update(verifier).digest()) !== c.challenge) {
        return json(res, 400, { error: 'invalid_grant' });
      }
      const now = Math.floor(Date.now() / 1000);
      const idToken = sign({ iss: issuer, aud: clientId, iat: now, exp: now + 300, nonce: c.nonce, ...user });
      return json(res, 200, { access_token: b64url(randomBytes(24)), token_type: 'Bearer', expires_in: 300, id_token: idToken });
    }
    if (req.method === 'GET' && url.pathname === '/userinfo') return json(res, 200, user);
    json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return { issuer, close: () => new Promise<void>((r) => server.close(() => r())) };
}
