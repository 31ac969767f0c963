import { createHash } from 'node:crypto';
import { canonicalToolCall, type ToolCall } from '../../domain/evaluation/call-fingerprint';

/**
 * SHA-256, lowercase hex, of a canonical call string (the domain renders, the application hashes):
 * an approval's fingerprint (DESIGN 6.4) and a grant's `call` claim (6.5) are both made here.
 */
export const callHash = (canonical: string): string => createHash('sha256').update(canonical).digest('hex');

/** The `call` claim of a grant issued for (or presented with) this tool call. */
export const grantCallHash = (call: ToolCall): string => callHash(canonicalToolCall(call));
