import { BaseConfig } from './base.config';
import { ConfigError, parseConfig } from './load-config';

describe('parseConfig', () => {
  it('applies defaults in embedded mode with nothing set', () => {
    const c = parseConfig(BaseConfig, {});
    expect(c.GATEWAY_MODE).toBe('embedded');
    expect(c.PORT).toBe(8080);
    expect(c.DATA_DIR).toBe('./.data');
  });

  it('converts numbers and rejects a bad port with one clear message', () => {
    expect(parseConfig(BaseConfig, { PORT: '9000' }).PORT).toBe(9000);
    expect(() => parseConfig(BaseConfig, { PORT: 'eighty' })).toThrow(new ConfigError('PORT must be an integer between 1 and 65535'));
  });

  it('requires the infrastructure settings in distributed mode', () => {
    expect(() => parseConfig(BaseConfig, { GATEWAY_MODE: 'distributed' })).toThrow(/DATABASE_URL.*; KAFKA_BROKERS.*; REDIS_URL.*; INTERNAL_AUTH_TOKEN/);
    expect(() =>
      parseConfig(BaseConfig, {
        GATEWAY_MODE: 'distributed',
        DATABASE_URL: 'postgresql://x@h/db',
        KAFKA_BROKERS: 'a:9092,b:9092',
        REDIS_URL: 'redis://h:6379',
        INTERNAL_AUTH_TOKEN: 'short',
      }),
    ).toThrow(/INTERNAL_AUTH_TOKEN must be at least 32/);
    const ok = parseConfig(BaseConfig, {
      GATEWAY_MODE: 'distributed',
      DATABASE_URL: 'postgresql://x@h/db',
      KAFKA_BROKERS: 'a:9092,b:9092',
      REDIS_URL: 'redis://h:6379',
      INTERNAL_AUTH_TOKEN: 'x'.repeat(32),
    });
    expect(ok.kafkaBrokers).toEqual(['a:9092', 'b:9092']);
  });

  it('takes LOG_FORMAT auto by default, json or pretty, and rejects anything else in one line', () => {
    expect(parseConfig(BaseConfig, {}).LOG_FORMAT).toBe('auto');
    expect(parseConfig(BaseConfig, { LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
    expect(() => parseConfig(BaseConfig, { LOG_FORMAT: 'yaml' })).toThrow(new ConfigError('LOG_FORMAT must be one of auto, json, pretty'));
  });

  it('rejects an unknown mode', () => {
    expect(() => parseConfig(BaseConfig, { GATEWAY_MODE: 'cluster' })).toThrow(/GATEWAY_MODE/);
  });
});

describe('Kafka security settings', () => {
  const distributed = {
    GATEWAY_MODE: 'distributed',
    DATABASE_URL: 'postgresql://db/x',
    KAFKA_BROKERS: 'kafka:9092',
    REDIS_URL: 'redis://r:6379',
    INTERNAL_AUTH_TOKEN: 'x'.repeat(32),
  };

  it('gives the Kafka clients TLS and SASL from the settings, and nothing when unset', () => {
    expect(parseConfig(BaseConfig, distributed).kafkaSecurity).toEqual({});
    const secured = parseConfig(BaseConfig, {
      ...distributed,
      KAFKA_SSL: 'true',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_SASL_PASSWORD: 'p',
    });
    expect(secured.kafkaSecurity).toEqual({ ssl: true, sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p' } });
  });

  it('refuses a SASL mechanism it does not know, or one without credentials', () => {
    expect(() => parseConfig(BaseConfig, { ...distributed, KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(
      /KAFKA_SASL_MECHANISM must be plain, scram-sha-256 or scram-sha-512/,
    );
    expect(() => parseConfig(BaseConfig, { ...distributed, KAFKA_SASL_MECHANISM: 'plain' })).toThrow(/KAFKA_SASL_USERNAME is required/);
  });
});
