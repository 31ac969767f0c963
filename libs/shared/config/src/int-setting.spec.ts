import { IsOptional } from 'class-validator';
import { BaseConfig } from './base.config';
import { IntSetting } from './int-setting';
import { ConfigError, parseConfig } from './load-config';

class TimeoutConfig extends BaseConfig {
  @IsOptional()
  @IntSetting('SOME_TIMEOUT_MS', 100, 60000)
  SOME_TIMEOUT_MS?: number;
}

describe('IntSetting', () => {
  it('holds a number, not the env text', () => {
    const c = parseConfig(TimeoutConfig, { SOME_TIMEOUT_MS: '1500', OUTBOX_POLL_MS: '50' });
    expect(c.SOME_TIMEOUT_MS).toBe(1500);
    expect(c.OUTBOX_POLL_MS).toBe(50);
  });

  it.each([
    ['PORT', 'abc', 'PORT must be an integer between 1 and 65535'],
    ['PORT', '80.5', 'PORT must be an integer between 1 and 65535'],
    ['PORT', '70000', 'PORT must be an integer between 1 and 65535'],
    ['SOME_TIMEOUT_MS', 'soon', 'SOME_TIMEOUT_MS must be an integer between 100 and 60000'],
    ['SOME_TIMEOUT_MS', '99', 'SOME_TIMEOUT_MS must be an integer between 100 and 60000'],
    ['OUTBOX_POLL_MS', '1e9', 'OUTBOX_POLL_MS must be an integer between 10 and 60000'],
  ])('rejects %s=%s with one line', (name, value, message) => {
    expect(() => parseConfig(TimeoutConfig, { [name]: value })).toThrow(new ConfigError(message));
  });

  it('leaves an optional setting unset', () => {
    expect(parseConfig(TimeoutConfig, {}).SOME_TIMEOUT_MS).toBeUndefined();
  });
});
