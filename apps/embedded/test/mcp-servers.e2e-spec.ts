import { describeMcpServers, startEmbeddedSystem } from '@igw/testing';

describeMcpServers('embedded', (env) => startEmbeddedSystem({ env }));
