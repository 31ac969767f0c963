/**
 * Data elements of an evaluation (DESIGN 6.4): which of the intention's allowed
 * `(data_source_id, path)` pairs this call may touch.
 *
 * How a named field matches an allowed path: the field must equal the path, or a dot-separated
 * *suffix* of it that starts at a segment boundary. So `email`, `customers.email` and
 * `crm.customers.email` all match the path `crm.customers.email`, while `mail` and `s.email` do
 * not. Why: tools name columns the way their query language does (`email`, `customers.email`),
 * while intentions name them fully qualified; demanding an exact path would refuse ordinary
 * calls, and matching on whole segments never lets a field reach a path it does not name.
 * A bare name may match several allowed paths (`email` of `customers` and of `leads`): all of
 * them are approved, which never exceeds the intention's list. Matching is case-sensitive and
 * has no wildcards: `*` names no path, so `select: "*"` is refused unless the list has a `*`
 * path (asking for everything is refused where the intention lists fields).
 */

/** One allowed element of an intention (structurally the policy registry's `DataElement`). */
export interface DataElementRef {
  dataSourceId: string;
  path: string;
}

/** The argument keys that name fields, read in this order. */
export const FIELD_ARGUMENTS = ['columns', 'fields', 'select'] as const;

export type DataElementResult =
  /** `approved`: `"<data_source_id>:<path>"`, in the intention's order, without duplicates. */
  | { ok: true; approved: string[] }
  /** Some named field is outside the list: the call is denied; `refused` names those fields. */
  | { ok: false; refused: string[] };

/**
 * The fields a call names in `arguments.columns|fields|select`: a string or an array of strings
 * (other values, and non-strings inside arrays, are ignored). A string may list several fields
 * separated by commas (`"name, email"`, as in `select=` query languages); each piece is trimmed
 * and empty pieces are dropped. Order of first appearance, no duplicates.
 */
export function namedFields(args: unknown): string[] {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return [];
  const found = new Set<string>();
  const take = (value: unknown) => {
    if (typeof value !== 'string') return;
    for (const piece of value.split(',')) {
      const field = piece.trim();
      if (field !== '') found.add(field);
    }
  };
  for (const key of FIELD_ARGUMENTS) {
    // Own properties only: `arguments` is client JSON, never let `constructor` & co. through.
    if (!Object.prototype.hasOwnProperty.call(args, key)) continue;
    const value = (args as Record<string, unknown>)[key];
    if (Array.isArray(value)) value.forEach(take);
    else take(value);
  }
  return [...found];
}

/** Whether a requested field names this path (see the module comment). */
export function fieldMatchesPath(field: string, path: string): boolean {
  return path === field || (path.length > field.length && path.endsWith(field) && path[path.length - field.length - 1] === '.');
}

export const formatDataElement = (e: DataElementRef): string => `${e.dataSourceId}:${e.path}`;

/**
 * The approved data elements of a call. With `dataSourceId`, only that source's elements are
 * candidates (a source the intention does not list approves nothing, and refuses any named
 * field). Without named fields the whole candidate list is approved.
 */
export function resolveDataElements(input: { allowed: readonly DataElementRef[]; arguments?: unknown; dataSourceId?: string | null }): DataElementResult {
  const source = input.dataSourceId ?? null;
  const candidates = source === null ? input.allowed : input.allowed.filter((e) => e.dataSourceId === source);
  const fields = namedFields(input.arguments);
  const unique = (elements: readonly DataElementRef[]) => [...new Set(elements.map(formatDataElement))];
  if (fields.length === 0) return { ok: true, approved: unique(candidates) };

  const refused = fields.filter((f) => !candidates.some((e) => fieldMatchesPath(f, e.path)));
  if (refused.length > 0) return { ok: false, refused };
  return { ok: true, approved: unique(candidates.filter((e) => fields.some((f) => fieldMatchesPath(f, e.path)))) };
}
