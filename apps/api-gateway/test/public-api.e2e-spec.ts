import {
  describeFailSafeClassification,
  describeIntentEvaluation,
  describeMandates,
  describeMcpProxy,
  describePublicApi,
  describeWebhooks,
  startDistributedSystem,
} from '@igw/testing';

// Two gateway replicas in front of one policy-registry: the suite spreads calls over both.
describePublicApi('distributed', () => startDistributedSystem({ gateways: 2 }));
describeIntentEvaluation('distributed', () => startDistributedSystem({ gateways: 2 }));
describeFailSafeClassification('distributed', () => startDistributedSystem({ gateways: 2 }));
describeMandates('distributed', () => startDistributedSystem({ gateways: 2 }));
describeMcpProxy('distributed', () => startDistributedSystem({ gateways: 2, decisionProxies: 2 }));
describeWebhooks('distributed', (env) => startDistributedSystem({ env }));
