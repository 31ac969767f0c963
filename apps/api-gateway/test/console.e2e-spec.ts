import { describeConsole, startDistributedSystem } from '@igw/testing';

// The api-gateway serves the console's files; every call it makes goes through the gateway's public API.
describeConsole('distributed', () => startDistributedSystem());
