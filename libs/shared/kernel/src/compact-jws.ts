const BASE64URL = /^[A-Za-z0-9_-]+$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * True when `segment` is canonical base64url (RFC 7515 §2, RFC 4648 §5): only the URL-safe
 * alphabet, no padding, a length that encodes whole bytes, and zero bits where the last character
 * carries fewer than six. Lenient decoders accept `sig==` or a stray last bit, so one token would
 * have many spellings; a verifier must refuse all but one.
 */
export function isCanonicalBase64url(segment: string): boolean {
  if (!BASE64URL.test(segment)) return false;
  const rest = segment.length % 4;
  if (rest === 1) return false;
  if (rest === 0) return true;
  // 2 characters carry 1 byte (4 spare bits), 3 characters carry 2 bytes (2 spare bits).
  const spare = rest === 2 ? 0b1111 : 0b11;
  return (ALPHABET.indexOf(segment.charAt(segment.length - 1)) & spare) === 0;
}

/** True when `token` is a compact JWS of three non-empty, canonical base64url segments (DESIGN 6.12). */
export function isCanonicalCompactJws(token: string): boolean {
  const parts = token.split('.');
  return parts.length === 3 && parts.every(isCanonicalBase64url);
}
