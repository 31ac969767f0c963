import { describePublicApi, describeReplicas, startDistributedSystem } from '@igw/testing';

// Two replicas of every service, every caller balancing over them (issue 18).
describeReplicas(() => startDistributedSystem({ replicas: 2 }));

describe('two replicas of every service', () => {
  // The acceptance suite, unchanged, against the replicated system.
  describePublicApi('distributed', () => startDistributedSystem({ replicas: 2 }));
});
