import { describeConsoleOverview, startDistributedSystem } from '@igw/testing';

describeConsoleOverview('distributed', () => startDistributedSystem());
