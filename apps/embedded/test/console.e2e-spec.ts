import { describeConsole, startEmbeddedSystem } from '@igw/testing';

describeConsole('embedded', () => startEmbeddedSystem());
