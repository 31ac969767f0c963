export * from './ports/event-bus.port';
export * from './adapters/in-process/in-process-event-bus';
export * from './outbox/outbox-relay';
export * from './envelope';
export * from './adapters/kafka/kafka-event-bus';
export * from './version-board';
export * from './read-model/exact-read-model';
export { provisionTopics } from './adapters/kafka/kafka-topics';
export * from './read-model/read-model-feed';
