import type { AttemptResult } from '../../domain';

export const WEBHOOK_SENDER = Symbol('WEBHOOK_SENDER');

export interface OutgoingWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Sends one attempt. Never throws: no answer (refused destination, timeout, reset) is `{status: null, error}`. */
export interface WebhookSender {
  send(request: OutgoingWebhook): Promise<AttemptResult>;
  /**
   * Why webhooks may not go to this URL's host, or null: at registration the name is resolved and
   * refused when it has no address or only non-public ones (unless private addresses are allowed).
   */
  destinationProblem(url: string): Promise<string | null>;
}
