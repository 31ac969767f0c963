import { ConfigError } from '@igw/config';
import { tracingEnabled } from '@igw/http';
import { startTracing } from './tracing';

describe('startTracing', () => {
  it('does nothing without OTEL_EXPORTER_OTLP_ENDPOINT (blank counts as unset)', async () => {
    expect(await startTracing('svc', {})).toBeUndefined();
    expect(await startTracing('svc', { OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined();
    expect(tracingEnabled()).toBe(false);
  });

  it.each(['localhost:4318', 'collector', 'ftp://collector:4318', 'http//collector'])(
    'refuses %s as a configuration error naming the setting',
    async (endpoint) => {
      const started = startTracing('svc', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
      await expect(started).rejects.toBeInstanceOf(ConfigError);
      await expect(started).rejects.toThrow(/^OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/);
      expect(tracingEnabled()).toBe(false);
    },
  );
});
