import { describeMcpServers, startDistributedSystem } from '@igw/testing';

// Through the gateway: `/v1/mcp-servers*` is routed to the decision-proxy service.
describeMcpServers('distributed', (env) => startDistributedSystem({ env }));
