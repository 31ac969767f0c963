import { describeStats, startEmbeddedSystem } from '@igw/testing';

describeStats('embedded', () => startEmbeddedSystem());
