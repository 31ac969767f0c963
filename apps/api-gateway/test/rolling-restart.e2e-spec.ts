import { describeRollingRestart, startDistributedSystem } from '@igw/testing';

// The org's rate limit well above the stream's rate: a 429 is not what this drill is about.
describeRollingRestart(() => startDistributedSystem({ replicas: 2, env: { RATE_LIMIT_RPS: '5000', RATE_LIMIT_BURST: '10000' } }));
