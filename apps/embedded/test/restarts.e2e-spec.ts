import { describeRestarts, startEmbeddedSystem } from '@igw/testing';

describeRestarts('embedded', () => startEmbeddedSystem());
