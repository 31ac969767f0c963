import { describeReplays, startDistributedSystem } from '@igw/testing';

// Two gateway replicas: a replay and the evaluations beside it go through either.
describeReplays('distributed', () => startDistributedSystem({ gateways: 2 }));
