/**
 * WebAuthn in the browser with the server's JSON: the options arrive with their binary
 * fields (challenge, user id, credential ids) as base64url strings, and the credential goes
 * back with its ArrayBuffers as base64url strings too.
 */
import type { WebAuthnCredential, WebAuthnOptions } from './api-types';
import i18n from '@/lib/i18n';

export function b64urlToBytes(s: string): Uint8Array<ArrayBuffer> {
  const pad = '='.repeat((4 - (s.length % 4)) % 4);
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + pad);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function bytesToB64url(buf: ArrayBuffer | Uint8Array): string {
  const bytes = buf instanceof Uint8Array ? buf : new Uint8Array(buf);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

type Descriptor = { id: string; type: string; transports?: string[] };

/** The server's answer to a begin call: `{ publicKey: {...} }` as go-webauthn encodes it. */
export type ServerOptions = WebAuthnOptions;

function descriptors(list: unknown): PublicKeyCredentialDescriptor[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return (list as Descriptor[]).map((d) => ({
    id: b64urlToBytes(d.id),
    type: 'public-key',
    transports: d.transports as AuthenticatorTransport[] | undefined,
  }));
}

export function toCreationOptions(o: ServerOptions): PublicKeyCredentialCreationOptions {
  const pk = o.publicKey as unknown as PublicKeyCredentialCreationOptions & {
    challenge: string;
    user: { id: string; name: string; displayName: string };
    excludeCredentials?: Descriptor[];
  };
  return {
    ...pk,
    challenge: b64urlToBytes(pk.challenge),
    user: { ...pk.user, id: b64urlToBytes(pk.user.id) },
    excludeCredentials: descriptors(pk.excludeCredentials),
  };
}

export function toRequestOptions(o: ServerOptions): PublicKeyCredentialRequestOptions {
  const pk = o.publicKey as unknown as PublicKeyCredentialRequestOptions & { challenge: string; allowCredentials?: Descriptor[] };
  return { ...pk, challenge: b64urlToBytes(pk.challenge), allowCredentials: descriptors(pk.allowCredentials) };
}

/** The credential as JSON for the server (ArrayBuffers as base64url). */
export function credentialToJSON(cred: PublicKeyCredential): WebAuthnCredential {
  const r = cred.response as AuthenticatorResponse & {
    attestationObject?: ArrayBuffer;
    authenticatorData?: ArrayBuffer;
    signature?: ArrayBuffer;
    userHandle?: ArrayBuffer | null;
    getTransports?: () => string[];
  };
  const response: Record<string, unknown> = { clientDataJSON: bytesToB64url(r.clientDataJSON) };
  if (r.attestationObject) response.attestationObject = bytesToB64url(r.attestationObject);
  if (r.authenticatorData) response.authenticatorData = bytesToB64url(r.authenticatorData);
  if (r.signature) response.signature = bytesToB64url(r.signature);
  if (r.userHandle) response.userHandle = bytesToB64url(r.userHandle);
  if (typeof r.getTransports === 'function') response.transports = r.getTransports();
  return {
    id: cred.id,
    rawId: bytesToB64url(cred.rawId),
    type: cred.type as WebAuthnCredential['type'],
    response,
    authenticatorAttachment: cred.authenticatorAttachment ?? undefined,
    clientExtensionResults: cred.getClientExtensionResults() as Record<string, unknown>,
  };
}

/** Whether this browser can use passkeys at all (a secure context with WebAuthn). */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential !== 'undefined' && !!navigator.credentials;
}

/** Runs navigator.credentials.create with the server's options. */
export async function createPasskey(o: ServerOptions): Promise<WebAuthnCredential> {
  const cred = (await navigator.credentials.create({ publicKey: toCreationOptions(o) })) as PublicKeyCredential | null;
  if (!cred) throw new Error(i18n.t('passkey.noneCreated'));
  return credentialToJSON(cred);
}

/** Runs navigator.credentials.get with the server's options. */
export async function getPasskey(o: ServerOptions): Promise<WebAuthnCredential> {
  const cred = (await navigator.credentials.get({ publicKey: toRequestOptions(o) })) as PublicKeyCredential | null;
  if (!cred) throw new Error(i18n.t('passkey.noneChosen'));
  return credentialToJSON(cred);
}

/** Words for a WebAuthn failure in the browser (the person cancelled, timed out...). */
export function passkeyErrorMessage(e: unknown): string {
  if (e instanceof DOMException) {
    if (e.name === 'NotAllowedError') return i18n.t('passkey.cancelled');
    if (e.name === 'InvalidStateError') return i18n.t('passkey.alreadyRegistered');
    if (e.name === 'SecurityError') return i18n.t('passkey.wrongAddress');
  }
  return e instanceof Error ? e.message : i18n.t('passkey.failed');
}
