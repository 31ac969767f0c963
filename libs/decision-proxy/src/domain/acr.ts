/**
 * Authentication context classes (`acr`) and when a mandate's meets a rule's `required_acr`.
 *
 * Levels are an ordered list, weakest first; the default is `pwd < otp < mfa < hwk` (password,
 * one-time code, multi-factor, hardware key). A deployment with other names (URNs) passes its own
 * list. An `acr` meets a requirement when:
 * - it is the same string (always, listed or not), or
 * - both are listed and the mandate's comes at or after the required one, or
 * - both are plain non-negative integers ("0", "1", "2"…) and the mandate's is at least the
 *   required one (numeric levels, as some IdPs send).
 * Anything else does not meet it: an unknown or missing `acr` never satisfies a step-up (closed).
 */
export const DEFAULT_ACR_LEVELS: readonly string[] = ['pwd', 'otp', 'mfa', 'hwk'];

const NUMERIC = /^(0|[1-9][0-9]{0,8})$/;

export function acrSatisfies(acr: unknown, required: string, levels: readonly string[] = DEFAULT_ACR_LEVELS): boolean {
  if (typeof acr !== 'string' || acr === '') return false;
  if (acr === required) return true;
  const have = levels.indexOf(acr);
  const need = levels.indexOf(required);
  if (have !== -1 && need !== -1) return have >= need;
  if (NUMERIC.test(acr) && NUMERIC.test(required)) return Number(acr) >= Number(required);
  return false;
}
