import { describeIntentEvaluation, describeMandates, describePublicApi, startEmbeddedSystem } from '@igw/testing';

describePublicApi('embedded', () => startEmbeddedSystem());
describeIntentEvaluation('embedded', () => startEmbeddedSystem());
describeMandates('embedded', () => startEmbeddedSystem());
