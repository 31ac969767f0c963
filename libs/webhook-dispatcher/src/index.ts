export * from './domain';
export * from './webhook-dispatcher.config';
export * from './webhook-dispatcher.module';
export { HttpWebhookSender } from './adapters/delivery/http-webhook.sender';
export * from './webhook-dispatcher.options';
