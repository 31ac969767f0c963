import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseConfig } from '@igw/config';
import { DecisionProxyConfig, decisionProxySettings } from './decision-proxy.config';

describe('DecisionProxyConfig: the MCP upstreams settings', () => {
  const kek = randomBytes(32).toString('base64');
  const infra = {
    GATEWAY_MODE: 'distributed',
    POLICY_REGISTRY_URL: 'http://127.0.0.1:8081',
    APPROVALS_URL: 'http://127.0.0.1:8085',
    MANDATE_ISSUER_URL: 'http://127.0.0.1:8083',
    INTENT_EVALUATOR_URL: 'http://127.0.0.1:8082',
    DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/postgres',
    KAFKA_BROKERS: '127.0.0.1:9092',
    REDIS_URL: 'redis://127.0.0.1:6379',
    INTERNAL_AUTH_TOKEN: 'x'.repeat(32),
  };
  const distributed = { ...infra, MCP_UPSTREAMS_KEK: kek };

  it('MCP_UPSTREAMS_ALLOW_PRIVATE is "true" or "false" (default false)', () => {
    expect(decisionProxySettings(parseConfig(DecisionProxyConfig, distributed)).allowPrivateUpstreams).toBe(false);
    expect(decisionProxySettings(parseConfig(DecisionProxyConfig, { ...distributed, MCP_UPSTREAMS_ALLOW_PRIVATE: 'true' })).allowPrivateUpstreams).toBe(true);
    expect(() => parseConfig(DecisionProxyConfig, { ...distributed, MCP_UPSTREAMS_ALLOW_PRIVATE: 'yes' })).toThrow(
      'MCP_UPSTREAMS_ALLOW_PRIVATE must be "true" or "false"',
    );
  });

  it('MCP_UPSTREAMS_KEK is required in distributed mode and must be 32 bytes', () => {
    expect(() => parseConfig(DecisionProxyConfig, infra)).toThrow('MCP_UPSTREAMS_KEK must be set in distributed mode');
    expect(() => parseConfig(DecisionProxyConfig, { ...distributed, MCP_UPSTREAMS_KEK: 'short' })).toThrow('MCP_UPSTREAMS_KEK must be 32 bytes');
    const sealer = decisionProxySettings(parseConfig(DecisionProxyConfig, distributed)).headerSealer;
    expect(sealer.open(sealer.seal(Buffer.from('{"a":"b"}'), 'mcs_1'), 'mcs_1').toString()).toBe('{"a":"b"}');
    expect(() => sealer.open(sealer.seal(Buffer.from('x'), 'mcs_1'), 'mcs_2')).toThrow();
  });

  it('embedded mode without a KEK keeps one under DATA_DIR/keys, the same across starts', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'igw-proxy-kek-'));
    try {
      const env = { GATEWAY_MODE: 'embedded', DATA_DIR: dataDir };
      const first = decisionProxySettings(parseConfig(DecisionProxyConfig, env)).headerSealer;
      const second = decisionProxySettings(parseConfig(DecisionProxyConfig, env)).headerSealer;
      expect(second.kekId).toBe(first.kekId);
      expect(second.open(first.seal(Buffer.from('v'), 'mcs_1'), 'mcs_1').toString()).toBe('v');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
