import { describeRestarts, startDistributedSystem } from '@igw/testing';

describeRestarts('distributed', () => startDistributedSystem());
