// The classification cascade (DESIGN 6.4): lexical, then embedding and llm when configured.
export * from './cascade-evidence';
export * from './chat-model.port';
export * from './classification-cascade';
export * from './embedding-model.port';
export * from './model-endpoint.error';
export { callText, intentionText } from './classification-text';
export { InvalidLlmAnswerError, llmMessages, parseLlmAnswer, type LlmAnswer } from './llm-prompt';
