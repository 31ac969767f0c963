import type { ChatMessage, ChatModel, CompleteJsonOptions } from '../../application/classification/chat-model.port';
import { ModelEndpointError } from '../../application/classification/model-endpoint.error';
import { OpenAiEndpoint, type OpenAiEndpointOptions } from './openai-http';

export const DEFAULT_LLM_TIMEOUT_MS = 3000;
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * CHAT_MODEL over an OpenAI-compatible `POST {baseUrl}/chat/completions` `{model, messages,
 * response_format: {type: "json_object"}, temperature: 0}` → `{choices: [{message: {content}}]}`;
 * the content is parsed as JSON.
 */
export class OpenAiChatClient extends OpenAiEndpoint implements ChatModel {
  constructor(options: OpenAiEndpointOptions) {
    super(options, 'chat', DEFAULT_LLM_TIMEOUT_MS);
  }

  async completeJson(messages: readonly ChatMessage[], options?: Partial<CompleteJsonOptions>): Promise<unknown> {
    const timeoutMs = this.deadline(options?.timeoutMs);
    const body = await this.http.postJson(
      '/chat/completions',
      { model: this.model, messages, response_format: { type: 'json_object' }, temperature: 0 },
      timeoutMs,
      MAX_BODY_BYTES,
    );
    const choices = (body as { choices?: unknown } | null)?.choices;
    const content = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content : undefined;
    if (typeof content !== 'string') throw new ModelEndpointError('malformed_response', 'chat answer has no message content');
    try {
      return JSON.parse(content) as unknown;
    } catch {
      throw new ModelEndpointError('malformed_response', 'chat answer content is not JSON');
    }
  }
}
