import { describeMetrics, startDistributedSystem } from '@igw/testing';

// Seven processes, each with its own registry: the suite adds their scrapes up.
describeMetrics('distributed', () => startDistributedSystem());
