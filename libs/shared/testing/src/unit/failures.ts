/**
 * The error a call fails with, asserted to be of the expected class. Light on purpose (no
 * infrastructure imports): unit specs import it through `@igw/testing/unit`.
 */
type ErrorClass<E> = abstract new (...args: any[]) => E;

/** The error `fn` throws; fails the test when it returns or throws something else. */
export function failureOf<E>(fn: () => unknown, type: ErrorClass<E>): E {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(type);
    return e as E;
  }
  throw new Error(`expected a ${type.name}`);
}

/** The error `work` rejects with; fails the test when it resolves or rejects with something else. */
export async function rejectionOf<E>(work: Promise<unknown>, type: ErrorClass<E>): Promise<E> {
  const err = await work.then(
    () => {
      throw new Error(`expected a ${type.name}`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  return err as E;
}

/** Nothing an error exposes (message, detail, own fields, stack, extra) contains any of the secrets. */
export function expectNoSecrets(err: Error & { detail?: string; extra?: unknown }, secrets: string[]): void {
  const exposed = [err.message, err.detail ?? '', err.stack ?? '', JSON.stringify(err), JSON.stringify(err.extra)].join('\n');
  for (const s of secrets) expect(exposed).not.toContain(s);
}

/** Closes each in turn (a client before the servers it talks to). */
export async function closeInOrder(...items: { close(): Promise<void> }[]): Promise<void> {
  for (const item of items) await item.close();
}
