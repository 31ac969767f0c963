import 'reflect-metadata';
import { loadConfigOrExit } from '@igw/config';
import { ALL_TOPICS } from '@igw/contracts';
import { createLogger } from '@igw/http';
import { provisionTopics, runTask, TopicSettings } from '@igw/runtime';

/**
 * Creates every event topic (libs/contracts) on KAFKA_BROKERS with the partitions and
 * replication factor given, and exits: the chart's pre-install and pre-upgrade hook, for
 * clusters where brokers do not auto-create topics. Topics that exist are left as they are.
 */
runTask('kafka-topics', async () => {
  const settings = loadConfigOrExit(TopicSettings);
  await provisionTopics(ALL_TOPICS, settings, createLogger(settings.LOG_LEVEL, 'kafka-topics', settings.LOG_FORMAT));
});
