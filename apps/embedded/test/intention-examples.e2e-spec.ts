import { describeIntentionExamples, startEmbeddedSystem } from '@igw/testing';

describeIntentionExamples('embedded', () => startEmbeddedSystem());
