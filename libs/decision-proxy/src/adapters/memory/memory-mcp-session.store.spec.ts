import { itBehavesAsAnMcpSessionStore } from '../mcp-session-store.contract';
import { MemoryMcpSessionStore } from './memory-mcp-session.store';

describe('MemoryMcpSessionStore (embedded mode)', () => {
  itBehavesAsAnMcpSessionStore(() => new MemoryMcpSessionStore());
});
