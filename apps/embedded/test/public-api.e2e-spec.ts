import { describePublicApi, startEmbeddedSystem } from '@igw/testing';

describePublicApi('embedded', () => startEmbeddedSystem());
