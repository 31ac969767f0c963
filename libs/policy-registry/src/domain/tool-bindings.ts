import type { ErrorDetail } from '@igw/kernel';
import { scopeGlobProblem } from '@igw/scope-glob';

/** Bounds of an intention's `tools` (DESIGN 6.15); the wire contract states the same numbers. */
export const TOOL_BINDINGS = { maxItems: 100, maxLength: 256 } as const;

/** Tool names carry no blanks or control characters, so a pattern with one could never match. */
const UNMATCHABLE = /[\s\p{Cc}]/u;

/**
 * An intention's tool bindings: patterns over the tool name as evaluated, in the scope-glob
 * language (`*` within a `.` `/` `:` segment, `**` across). Each problem is pushed to `details`
 * naming `tools[i]`; the answer is the patterns with duplicates removed, first occurrence kept.
 */
export function checkToolBindings(tools: readonly string[], details: ErrorDetail[]): string[] {
  if (tools.length > TOOL_BINDINGS.maxItems) {
    details.push({ path: 'tools', message: `tools must hold at most ${TOOL_BINDINGS.maxItems} patterns` });
    return [];
  }
  const unique: string[] = [];
  tools.forEach((pattern, i) => {
    const problem = toolPatternProblem(pattern);
    if (problem) details.push({ path: `tools[${i}]`, message: `tools[${i}] ${problem}` });
    else if (!unique.includes(pattern)) unique.push(pattern);
  });
  return unique;
}

function toolPatternProblem(pattern: unknown): string | null {
  const problem = scopeGlobProblem(pattern);
  if (problem) return problem;
  const text = pattern as string;
  if (text.length > TOOL_BINDINGS.maxLength) return `must be at most ${TOOL_BINDINGS.maxLength} characters`;
  if (UNMATCHABLE.test(text)) return 'must not contain blanks or control characters (no tool name has them)';
  return null;
}
