import type { EventEnvelope } from '@igw/contracts';
import type { Subscription } from '../../ports/event-bus.port';

/** A handler's failure, with what its subscription does with poison. */
export class HandlerFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly event: EventEnvelope,
    readonly onPoison: Subscription['onPoison'],
  ) {
    super(errorMessage(error));
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function withTimeout<T>(work: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), ms);
    timer.unref?.();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
