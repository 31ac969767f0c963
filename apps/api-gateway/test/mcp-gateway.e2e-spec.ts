import { describeMcpGateway, startDistributedSystem } from '@igw/testing';

// Agents reach the decision proxy's MCP endpoint through the api-gateway, streamed both ways.
describeMcpGateway('distributed', () => startDistributedSystem());
