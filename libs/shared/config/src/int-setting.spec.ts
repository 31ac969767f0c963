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

  // Each setting with values that are not whole numbers in its range.
  const rejected: Record<string, { values: string[]; message: string }> = {
    PORT: { values: ['abc', '80.5', '70000'], message: 'PORT must be an integer between 1 and 65535' },
    SOME_TIMEOUT_MS: { values: ['soon', '99'], message: 'SOME_TIMEOUT_MS must be an integer between 100 and 60000' },
    OUTBOX_POLL_MS: { values: ['1e9'], message: 'OUTBOX_POLL_MS must be an integer between 10 and 60000' },
  };
  for (const [name, { values, message }] of Object.entries(rejected)) {
    it(`rejects a bad ${name} with one line`, () => {
      for (const value of values) expect(() => parseConfig(TimeoutConfig, { [name]: value })).toThrow(new ConfigError(message));
    });
  }

  it('leaves an optional setting unset', () => {
    expect(parseConfig(TimeoutConfig, {}).SOME_TIMEOUT_MS).toBeUndefined();
  });
});
