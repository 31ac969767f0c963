export * from './openai-compatible.fake-server';
