export * from './events/event-envelope';
export * from './events/topics';
export * from './events/payloads';
export * from './http/common.dto';
export * from './http/intentions.dto';
export * from './http/intent-cards.dto';
export * from './http/api-keys.dto';
export * from './http/service-routes';
