import type Redis from 'ioredis';
import { DependencyUnavailableError } from '@igw/kernel';
import type { McpSession } from '../../domain/mcp-session';
import type { McpSessionLimits, McpSessionStore } from '../../application/ports/mcp-session.store.port';

/**
 * Creates a session unless its org is at its cap: KEYS[1] the session, KEYS[2] the org's sessions
 * by expiry; ARGV: session JSON, now (ms), idle (ms), cap, id. Atomic, so concurrent initializes
 * on several replicas cannot overshoot the cap.
 */
const CREATE = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

/** Keeps a live session alive: KEYS as above; ARGV: now (ms), idle (ms), id. */
const TOUCH = `
if redis.call('PEXPIRE', KEYS[1], ARGV[2]) == 1 then
  redis.call('ZADD', KEYS[2], 'XX', tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[3])
  if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
end
return 1`;

/**
 * Distributed mode's MCP sessions in Redis, read by every decision-proxy replica: a session key
 * per session (expires when idle) and a sorted set of each org's sessions for its cap. Both keys
 * carry the org as a hash tag, so a Redis Cluster keeps them in one slot. Fails fast: a Redis
 * that does not answer within `timeoutMs` is a 503, never a session served on a guess.
 */
export class RedisMcpSessionStore implements McpSessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly timeoutMs = 500,
    private readonly prefix = 'igw:mcp:',
  ) {}

  private keys(orgId: string, id: string): [string, string] {
    return [`${this.prefix}{${orgId}}:s:${id}`, `${this.prefix}{${orgId}}:org`];
  }

  async create(session: McpSession, limits: McpSessionLimits): Promise<boolean> {
    const [key, org] = this.keys(session.orgId, session.id);
    const made = await this.bounded(
      this.redis.eval(CREATE, 2, key, org, JSON.stringify(session), String(Date.now()), String(limits.idleMs), String(limits.maxPerOrg), session.id),
    );
    return made === 1;
  }

  async get(orgId: string, id: string): Promise<McpSession | null> {
    const raw = await this.bounded(this.redis.get(this.keys(orgId, id)[0]));
    if (raw === null) return null;
    const session = JSON.parse(raw) as McpSession;
    return session.orgId === orgId && session.id === id ? session : null;
  }

  async touch(session: McpSession, idleMs: number): Promise<void> {
    const [key, org] = this.keys(session.orgId, session.id);
    await this.bounded(this.redis.eval(TOUCH, 2, key, org, String(Date.now()), String(idleMs), session.id));
  }

  async update(session: McpSession): Promise<void> {
    // XX: an ended session is not brought back; KEEPTTL: its idle expiry is unchanged.
    await this.bounded(this.redis.set(this.keys(session.orgId, session.id)[0], JSON.stringify(session), 'KEEPTTL', 'XX'));
  }

  async delete(session: McpSession): Promise<void> {
    const [key, org] = this.keys(session.orgId, session.id);
    await this.bounded(this.redis.multi().del(key).zrem(org, session.id).exec());
  }

  private bounded<T>(op: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new DependencyUnavailableError('the MCP session store (redis)')), this.timeoutMs);
      op.then(
        (v) => (clearTimeout(timer), resolve(v)),
        (err: unknown) => (clearTimeout(timer), reject(new DependencyUnavailableError('the MCP session store (redis)', err))),
      );
    });
  }
}
