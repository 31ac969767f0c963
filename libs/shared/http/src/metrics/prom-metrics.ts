import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DECISION_KINDS, type DecisionKind, type Metrics } from '@igw/kernel';

/** An outbox as a scrape reads it (`SqlOutboxSource`). */
export interface OutboxBacklogSource {
  pending(): Promise<number>;
  oldestPendingAgeS(): Promise<number>;
}

/** Consumer lag per group as the bus reports it (Kafka: high-water minus committed offsets). */
export type ConsumerLagSource = () => Promise<ReadonlyArray<{ group: string; lag: number }>>;

/** Longest one scrape-time reading (an outbox query, the broker's offsets) may take. */
const SCRAPE_READ_TIMEOUT_MS = 2000;
const UNMATCHED_ROUTE = 'unmatched';

interface HttpChildren {
  count: { inc(): void };
  duration: { observe(value: number): void };
}

/**
 * The process's one Prometheus registry and every `igw_` family. Services count through the
 * kernel's `Metrics` port; the HTTP layer observes each answer; gauges that describe stores
 * (outbox backlog, consumer lag) are read when scraped, never on the request path.
 */
export class PromMetrics implements Metrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly decisions: Counter<'kind'>;
  private readonly evaluations: Counter<'outcome' | 'layer'>;
  private readonly rateLimitRejections: Counter;
  private readonly readModelRefreshes: Counter<'read_model' | 'via'>;
  /** route → method → status → children: after the first answer of a kind, observing allocates nothing. */
  private readonly httpChildren = new Map<string, Map<string, Map<number, HttpChildren>>>();
  private readonly outboxes = new Map<string, OutboxBacklogSource>();
  private readonly lagSources: ConsumerLagSource[] = [];

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'igw_' });
    this.httpRequests = new Counter({
      name: 'igw_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'igw_http_request_duration_seconds',
      help: 'Time from request to answer, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.decisions = new Counter({ name: 'igw_decisions_total', help: 'Decisions committed by the decision proxy, by kind.', labelNames: ['kind'], registers });
    for (const kind of DECISION_KINDS) this.decisions.labels(kind).inc(0);
    this.evaluations = new Counter({
      name: 'igw_intent_evaluations_total',
      help: 'Intent evaluations committed, by outcome and the classifier layer that decided.',
      labelNames: ['outcome', 'layer'],
      registers,
    });
    this.rateLimitRejections = new Counter({ name: 'igw_rate_limit_rejections_total', help: 'Requests refused by their key rate limit (429).', registers });
    this.readModelRefreshes = new Counter({
      name: 'igw_read_model_refreshes_total',
      help: "Refreshes of in-memory read models of another service's state: full loads from the owner, or events applied.",
      labelNames: ['read_model', 'via'],
      registers,
    });
    // Read from every registered outbox at scrape time; a schema that cannot be read now is left
    // out of this scrape (the database check says why).
    const outboxes = this.outboxes;
    const outboxGauge = (name: string, help: string, read: (source: OutboxBacklogSource) => Promise<number>) =>
      new Gauge({
        name,
        help,
        labelNames: ['schema'],
        registers,
        async collect() {
          this.reset();
          await Promise.all(
            [...outboxes].map(([schema, source]) =>
              bounded(read(source)).then(
                (n) => this.labels(schema).set(n),
                () => undefined,
              ),
            ),
          );
        },
      });
    outboxGauge('igw_outbox_backlog_events', 'Committed events not yet relayed to the bus, by schema (read at scrape time).', (source) => source.pending());
    outboxGauge(
      'igw_outbox_oldest_event_age_seconds',
      'Age of the oldest event not yet relayed, by schema; 0 when none waits (read at scrape time).',
      (source) => source.oldestPendingAgeS(),
    );
    const lagSources = this.lagSources;
    new Gauge({
      name: 'igw_kafka_consumer_lag',
      help: "Events a consumer group has yet to commit: partitions' high-water minus committed offsets, summed per group (distributed mode, read at scrape time).",
      labelNames: ['group'],
      registers,
      async collect() {
        this.reset();
        const lags = await Promise.all(lagSources.map((source) => bounded(source()).catch(() => [])));
        for (const { group, lag } of lags.flat()) this.labels(group).set(lag);
      },
    });
  }

  /** Prometheus text exposition of everything registered. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  observeHttp(method: string, route: string | undefined, status: number, seconds: number): void {
    const r = route ?? UNMATCHED_ROUTE;
    let byMethod = this.httpChildren.get(r);
    if (!byMethod) this.httpChildren.set(r, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let children = byStatus.get(status);
    if (!children) {
      const labels = [method, r, String(status)] as const;
      children = { count: this.httpRequests.labels(...labels), duration: this.httpDuration.labels(...labels) };
      byStatus.set(status, children);
    }
    children.count.inc();
    children.duration.observe(seconds);
  }

  /** Reads this schema's outbox backlog at each scrape. */
  watchOutbox(schema: string, source: OutboxBacklogSource): void {
    this.outboxes.set(schema, source);
  }

  watchConsumerLag(source: ConsumerLagSource): void {
    this.lagSources.push(source);
  }

  decisionMade(kind: DecisionKind): void {
    this.decisions.labels(kind).inc();
  }

  intentEvaluated(outcome: string, layer: string): void {
    this.evaluations.labels(outcome, layer).inc();
  }

  rateLimited(): void {
    this.rateLimitRejections.inc();
  }

  readModelRefreshed(readModel: string, via: 'load' | 'event'): void {
    this.readModelRefreshes.labels(readModel, via).inc();
  }
}

function bounded<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('metrics read timed out')), SCRAPE_READ_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

let processMetricsInstance: PromMetrics | undefined;

/** The process's one registry (created on first use): every app, module and scrape shares it. */
export function processMetrics(): PromMetrics {
  processMetricsInstance ??= new PromMetrics();
  return processMetricsInstance;
}
