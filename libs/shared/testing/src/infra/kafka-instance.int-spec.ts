import { existsSync } from 'node:fs';
import { Kafka, logLevel } from 'kafkajs';
import { isKafkaReachable, startKafkaInstance, type KafkaInstance } from './kafka-instance';

describe('startKafkaInstance', () => {
  let kafka: KafkaInstance | undefined;

  afterAll(async () => {
    await kafka?.destroy();
  });

  it('serves clients, is unreachable while stopped, and restarts on the same port with its messages', async () => {
    kafka = await startKafkaInstance();
    expect(kafka.brokers).toBe(`127.0.0.1:${kafka.port}`);
    const client = new Kafka({ clientId: 'kafka-instance-spec', brokers: [kafka.brokers], logLevel: logLevel.NOTHING });

    const admin = client.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'kept' }], waitForLeaders: true });
    await admin.disconnect();
    const producer = client.producer();
    await producer.connect();
    await producer.send({ topic: 'kept', acks: -1, messages: [{ key: 'k', value: 'before stop' }] });
    await producer.disconnect();

    await kafka.stop();
    expect(await isKafkaReachable(kafka.brokers, 1000)).toBe(false);

    await kafka.start();
    expect(await isKafkaReachable(kafka.brokers)).toBe(true);
    const consumer = client.consumer({ groupId: 'kafka-instance-spec' });
    await consumer.connect();
    await consumer.subscribe({ topic: 'kept', fromBeginning: true });
    const value = await new Promise<string>((resolve) => {
      void consumer.run({ eachMessage: async ({ message }) => resolve(String(message.value)) });
    });
    await consumer.disconnect();
    expect(value).toBe('before stop');
  });

  it('destroy stops the broker and removes its data', async () => {
    const own = await startKafkaInstance();
    await own.destroy();
    expect(existsSync(own.dataDir)).toBe(false);
    expect(await isKafkaReachable(own.brokers, 1000)).toBe(false);
  });
});
