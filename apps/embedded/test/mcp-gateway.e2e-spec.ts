import { describeMcpGateway, startEmbeddedSystem } from '@igw/testing';

describeMcpGateway('embedded', () => startEmbeddedSystem());
