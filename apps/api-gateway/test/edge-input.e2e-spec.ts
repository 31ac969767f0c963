import { describeEdgeInput, startDistributedSystem } from '@igw/testing';

// Two gateway replicas: the concurrent evaluations spread over both.
describeEdgeInput('distributed', () => startDistributedSystem({ gateways: 2 }));
