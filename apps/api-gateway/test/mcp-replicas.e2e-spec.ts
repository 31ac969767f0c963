import { describeMcpReplicas, startDistributedSystem } from '@igw/testing';

// Two decision-proxy replicas behind a round-robin TCP balancer (a Kubernetes Service's part):
// MCP sessions are served by either, and survive a restart of either.
describeMcpReplicas(() =>
  startDistributedSystem({ decisionProxies: 2, balanceDecisionProxies: true, env: { RATE_LIMIT_RPS: '5000', RATE_LIMIT_BURST: '10000' } }),
);
