import { BaseConfig } from './base.config';
import { ConfigError } from './load-config';
import { requireDistributed } from './mode';

const config = (over: Partial<BaseConfig>) => Object.assign(new BaseConfig(), over);

describe('requireDistributed', () => {
  it('refuses embedded mode', () => {
    expect(() => requireDistributed(config({}), 'approvals')).toThrow(
      new ConfigError('the approvals app runs in distributed mode; `npm start` runs embedded mode'),
    );
  });

  it('names the settings that are missing', () => {
    expect(() => requireDistributed(config({ GATEWAY_MODE: 'distributed' }), 'approvals', ['REDIS_URL', 'INTERNAL_AUTH_TOKEN'])).toThrow(
      new ConfigError('REDIS_URL, INTERNAL_AUTH_TOKEN must be set in distributed mode'),
    );
  });

  it('returns the config, typed with the settings present', () => {
    const c = requireDistributed(config({ GATEWAY_MODE: 'distributed', INTERNAL_AUTH_TOKEN: 't'.repeat(32) }), 'approvals', ['INTERNAL_AUTH_TOKEN']);
    const token: string = c.INTERNAL_AUTH_TOKEN;
    expect(token).toHaveLength(32);
  });
});
