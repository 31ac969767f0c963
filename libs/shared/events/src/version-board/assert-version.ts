export function assertBoardVersion(version: number): void {
  if (!Number.isSafeInteger(version) || version < 0) throw new RangeError(`version must be a non-negative integer, got ${version}`);
}
