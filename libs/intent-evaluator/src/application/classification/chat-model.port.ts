export const CHAT_MODEL = Symbol('CHAT_MODEL');

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompleteJsonOptions {
  /** Upper bound for the whole call (connect, generation, body). */
  timeoutMs: number;
}

/**
 * A chat-completions endpoint (OpenAI-compatible `POST /chat/completions`) asked for a JSON
 * object. Bound only when one is configured; the classification cascade then runs its `llm`
 * layer.
 */
export interface ChatModel {
  /**
   * The assistant message parsed as JSON (`response_format: {type: "json_object"}`,
   * temperature 0). Shape validation is the caller's job. Throws ModelEndpointError (timeout,
   * http_error, network_error, malformed_response — including content that is not JSON).
   */
  completeJson(messages: readonly ChatMessage[], options: CompleteJsonOptions): Promise<unknown>;
}
