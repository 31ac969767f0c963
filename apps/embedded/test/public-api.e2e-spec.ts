import { describeIntentEvaluation, describePublicApi, startEmbeddedSystem } from '@igw/testing';

describePublicApi('embedded', () => startEmbeddedSystem());
describeIntentEvaluation('embedded', () => startEmbeddedSystem());
