import { PromMetrics } from './prom-metrics';

const line = (text: string, prefix: string) => text.split('\n').find((l) => l.startsWith(prefix));

describe('PromMetrics', () => {
  it('counts requests by route pattern, method and status; an answer without a route is "unmatched"', async () => {
    const m = new PromMetrics();
    m.observeHttp('GET', '/v1/intentions/:id', 200, 0.004);
    m.observeHttp('GET', '/v1/intentions/:id', 200, 0.2);
    m.observeHttp('GET', '/v1/intentions/:id', 404, 0.001);
    m.observeHttp('GET', undefined, 404, 0.001);
    const text = await m.exposition();
    expect(line(text, 'igw_http_requests_total{method="GET",route="/v1/intentions/:id",status="200"}')).toMatch(/ 2$/);
    expect(line(text, 'igw_http_requests_total{method="GET",route="/v1/intentions/:id",status="404"}')).toMatch(/ 1$/);
    expect(line(text, 'igw_http_requests_total{method="GET",route="unmatched",status="404"}')).toMatch(/ 1$/);
    expect(line(text, 'igw_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/v1/intentions/:id",status="200"}')).toMatch(/ 1$/);
    expect(line(text, 'igw_http_request_duration_seconds_count{method="GET",route="/v1/intentions/:id",status="200"}')).toMatch(/ 2$/);
  });

  it('reads outbox backlogs and consumer lag at scrape time; a source that fails or hangs is left out, never the scrape', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    try {
      const m = new PromMetrics();
      let pending = 3;
      m.watchOutbox('registry', { pending: async () => pending, oldestPendingAgeS: async () => 1.5 });
      m.watchOutbox('broken', { pending: () => Promise.reject(new Error('down')), oldestPendingAgeS: () => new Promise(() => undefined) });
      m.watchConsumerLag(async () => [{ group: 'g1', lag: 7 }]);
      m.watchConsumerLag(() => Promise.reject(new Error('no broker')));
      const scrape = m.exposition();
      await jest.advanceTimersByTimeAsync(2500);
      const text = await scrape;
      expect(line(text, 'igw_outbox_backlog_events{schema="registry"}')).toBe('igw_outbox_backlog_events{schema="registry"} 3');
      expect(line(text, 'igw_outbox_oldest_event_age_seconds{schema="registry"}')).toBe('igw_outbox_oldest_event_age_seconds{schema="registry"} 1.5');
      expect(text).not.toContain('schema="broken"');
      expect(line(text, 'igw_kafka_consumer_lag{')).toBe('igw_kafka_consumer_lag{group="g1"} 7');
      pending = 0;
      const again = m.exposition();
      await jest.advanceTimersByTimeAsync(2500);
      expect(line(await again, 'igw_outbox_backlog_events{schema="registry"}')).toMatch(/ 0$/);
    } finally {
      jest.useRealTimers();
    }
  });

  it('counts decisions (all twelve kinds present from 0), evaluations, rate limits and read-model refreshes', async () => {
    const m = new PromMetrics();
    m.decisionMade('deny');
    m.intentEvaluated('allowed', 'lexical');
    m.rateLimited();
    m.readModelRefreshed('intent cards', 'load');
    const text = await m.exposition();
    expect(text.split('\n').filter((l) => l.startsWith('igw_decisions_total{'))).toHaveLength(12);
    expect(line(text, 'igw_decisions_total{kind="deny"}')).toMatch(/ 1$/);
    expect(line(text, 'igw_decisions_total{kind="allow"}')).toMatch(/ 0$/);
    expect(line(text, 'igw_intent_evaluations_total{outcome="allowed",layer="lexical"}')).toMatch(/ 1$/);
    expect(line(text, 'igw_rate_limit_rejections_total')).toMatch(/ 1$/);
    expect(line(text, 'igw_read_model_refreshes_total{read_model="intent cards",via="load"}')).toMatch(/ 1$/);
    expect(text).toContain('igw_process_cpu_seconds_total');
  });
});
