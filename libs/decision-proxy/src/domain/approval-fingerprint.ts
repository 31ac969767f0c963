/**
 * "The same action" for an approval on the mandate path (DESIGN 6.9): the same mandate, the same
 * operation on the same target with the same arguments. An approval request is opened with the
 * fingerprint of its call, and only a call with that fingerprint spends the approval once given.
 *
 * The domain renders the identity as canonical JSON; the application hashes that string (sha256,
 * hex) into the fingerprint the approvals service keys on. The evaluator's call fingerprint
 * (DESIGN 6.4) is another identity — org, user, session, tool name — and stays its own.
 */
export interface ApprovalActionIdentity {
  /** The mandate's `jti`: an approval is for the mandate it was asked with. */
  credId: string;
  operation: string;
  /** Absent and null are the same target (none). */
  targetResource?: string | null;
  /** The arguments as canonical JSON (the kernel's canonicalJson; absent arguments are `{}`), rendered once per call. */
  argumentsJson: string;
}

/** Bumped if the rendering below ever changes, so old and new fingerprints never collide. */
export const APPROVAL_FINGERPRINT_VERSION = 1;

/**
 * The canonical string of an action awaiting approval, itself canonical JSON (members in sorted
 * key order): `{"args":<canonical arguments>,"cred":<jti>,"op":<operation>,"target":<target or null>,"v":1}`.
 * Equal strings ⇔ the same action.
 */
export function canonicalApprovalAction(action: ApprovalActionIdentity): string {
  return `{"args":${action.argumentsJson},"cred":${JSON.stringify(action.credId)},"op":${JSON.stringify(action.operation)},"target":${JSON.stringify(action.targetResource ?? null)},"v":${APPROVAL_FINGERPRINT_VERSION}}`;
}
