import { describeEdgeInput, startEmbeddedSystem } from '@igw/testing';

describeEdgeInput('embedded', () => startEmbeddedSystem());
