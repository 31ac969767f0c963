export const EMBEDDING_MODEL = Symbol('EMBEDDING_MODEL');

export interface EmbedOptions {
  /** Upper bound for the whole call; the adapter's own configured timeout applies when absent. */
  timeoutMs?: number;
}

/**
 * An embeddings endpoint (OpenAI-compatible `POST /embeddings`). Bound only when one is
 * configured; the classification cascade then runs its `embedding` layer.
 */
export interface EmbeddingModel {
  /**
   * One vector per text, in input order, all of the same dimension. Throws ModelEndpointError
   * (timeout, http_error, network_error, malformed_response) when it cannot deliver that.
   */
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]>;
}
