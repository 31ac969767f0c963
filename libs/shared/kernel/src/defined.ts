/**
 * The value, or a clear error naming what was missing. For places where the code's own
 * invariants guarantee a value the type system cannot see (a non-empty list, a matched group).
 */
export function defined<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`internal invariant broken: ${what} is missing`);
  return value;
}
