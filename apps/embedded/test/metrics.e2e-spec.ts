import { describeMetrics, startEmbeddedSystem } from '@igw/testing';

describeMetrics('embedded', () => startEmbeddedSystem());
