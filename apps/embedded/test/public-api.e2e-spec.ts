import { describeIntentEvaluation, describeMandates, describeMcpProxy, describePublicApi, startEmbeddedSystem } from '@igw/testing';

describePublicApi('embedded', () => startEmbeddedSystem());
describeIntentEvaluation('embedded', () => startEmbeddedSystem());
describeMandates('embedded', () => startEmbeddedSystem());
describeMcpProxy('embedded', () => startEmbeddedSystem());
