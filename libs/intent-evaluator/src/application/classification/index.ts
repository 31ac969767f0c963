// The classification cascade (DESIGN 6.4, 6.15): binding, examples, lexical, then embedding and
// llm when configured, as stages; the certainty rule turns the last answer into a verdict.
export * from './cascade-evidence';
export * from './chat-model.port';
export * from './classification-cascade';
export * from './embedding-model.port';
export * from './model-endpoint.error';
export { callText, intentionText } from './classification-text';
export { InvalidLlmAnswerError, llmMessages, parseLlmAnswer, type LlmAnswer } from './llm-prompt';
