/** The twelve kinds of decision the mandate path can answer (spec 0.6.0, DESIGN 6.9). */
export const DECISION_KINDS = [
  'allow',
  'allow_with_log_extra',
  'allow_with_redact',
  'allow_with_downgrade',
  'allow_with_shadow',
  'defer',
  'negotiate',
  'substitute',
  'approval',
  'step_up',
  'deny',
  'deny_with_reroute',
] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];
