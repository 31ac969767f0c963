import { describeReplays, startEmbeddedSystem } from '@igw/testing';

describeReplays('embedded', () => startEmbeddedSystem());
