import { describeIntentionExamples, startDistributedSystem } from '@igw/testing';

// Two gateway replicas in front of one policy-registry: PATCH and examples go through either.
describeIntentionExamples('distributed', () => startDistributedSystem({ gateways: 2 }));
