/**
 * Why a model endpoint (embeddings or chat) gave no usable answer. The cascade records the
 * reason in `classification_evidence.layer_errors` and falls back to the previous layer.
 */
export type ModelEndpointFailure =
  /** No (complete) answer within the timeout. */
  | 'timeout'
  /** The endpoint answered with a non-2xx status. */
  | 'http_error'
  /** Connection refused, reset, DNS failure… */
  | 'network_error'
  /** A 2xx answer whose body is not what the API documents (not JSON, wrong shape, wrong count). */
  | 'malformed_response';

/**
 * The one error type the embedding and chat ports throw. Its message never contains the API
 * key, the request or the response body (which may echo the conversation).
 */
export class ModelEndpointError extends Error {
  constructor(
    readonly failure: ModelEndpointFailure,
    message: string,
    /** HTTP status, for `http_error`. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelEndpointError';
  }
}
