// OpenAI-compatible adapters of the classification cascade's EMBEDDING_MODEL and CHAT_MODEL ports.
export * from './openai-chat.client';
export * from './openai-embeddings.client';
export type { OpenAiEndpointOptions } from './openai-http';
