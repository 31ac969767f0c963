// Types of calls.js for its unit test (the console itself is plain JavaScript).
export declare function parsePatterns(text: string | null | undefined): string[];
export declare function patternsText(tools: string[] | null | undefined): string;
export declare class InputError extends Error {
  constructor(path: string, message: string);
  code: string;
  details: { path: string; message: string }[];
}
export declare function parseArguments(text: string | null | undefined, path?: string): Record<string, unknown> | undefined;
export declare function formatArguments(args: unknown): string;
export declare function percent(c: unknown): string;
export declare function reasonText(approval: { reason_code?: string | null; source?: string }): string;
export declare function teachable(approval: { source?: string; tool_call?: unknown }): boolean;
