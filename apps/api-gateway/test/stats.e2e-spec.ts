import { describeStats, startDistributedSystem } from '@igw/testing';

// The gateway composes GET /v1/stats from the evaluator's, the decision proxy's and approvals' internal routes.
describeStats('distributed', () => startDistributedSystem());
