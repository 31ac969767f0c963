/** Polls `check` every `everyMs` until it holds; throws `timed out waiting for <what>` after `timeoutMs`. */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Reads up to `tries` times, 100 ms apart, until `done` holds for what was read; the last value read. */
export async function pollFor<T>(read: () => Promise<T>, done: (value: T) => boolean, tries: number): Promise<T> {
  let value = await read();
  await new Promise((r) => setTimeout(r, 100));
  for (let i = 1; i < tries && !done(value); i++) {
    value = await read();
    await new Promise((r) => setTimeout(r, 100));
  }
  return value;
}
