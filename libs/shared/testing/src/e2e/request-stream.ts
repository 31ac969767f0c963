/**
 * A steady stream of requests for fault tests: a few loops, each sending one request after the
 * other (a short pause between), every answer recorded with when it was sent and answered. A
 * request that gets no answer in `timeoutMs` (or no HTTP answer at all) is recorded with status 0.
 */

export interface StreamLoop {
  /** Names the loop in failures: `decision-allow-1`. */
  name: string;
  kind: 'decision' | 'evaluation';
  /** What a 2xx/4xx answer of this loop must be (decision kind, or evaluation outcome). */
  expects: string;
  method: 'POST';
  path: string;
  body(): unknown;
  headers?: Record<string, string>;
}

export interface Sample {
  loop: string;
  kind: StreamLoop['kind'];
  expects: string;
  sentAt: number;
  answeredAt: number;
  /** HTTP status; 0 when no answer came (connection refused or reset, timeout). */
  status: number;
  /** The error code of an error answer (`unavailable`…), or why no answer came. */
  code?: string;
  /** decision.decision_id of a decision, intent_event_id of an evaluation. */
  id?: string;
  /** decision.kind of a decision, outcome of an evaluation. */
  verdict?: string;
}

export class RequestStream {
  readonly samples: Sample[] = [];
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly definitions: readonly StreamLoop[],
    private readonly options: { pauseMs?: number; timeoutMs?: number } = {},
  ) {}

  get names(): string[] {
    return this.definitions.map((d) => d.name);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = this.definitions.map((d) => this.run(d));
  }

  /** Stops sending and waits for the requests in flight to be answered. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /** Samples sent at or after `from` and answered at or before `to`: wholly inside a window. */
  within(from: number, to: number): Sample[] {
    return this.samples.filter((s) => s.sentAt >= from && s.answeredAt <= to);
  }

  /**
   * Waits until every loop has had an answer of what it expects to a request sent at or after
   * `since`; resolves with how long after `since` the last loop got there (ms), or rejects after
   * `withinMs` naming the loops still failing and what they got.
   */
  async recovered(since: number, withinMs: number): Promise<number> {
    const deadline = since + withinMs;
    for (;;) {
      const firstGood = new Map<string, number>();
      for (const s of this.samples) {
        if (s.sentAt >= since && isExpected(s) && !firstGood.has(s.loop)) firstGood.set(s.loop, s.answeredAt);
      }
      if (firstGood.size === this.definitions.length) return Math.max(...firstGood.values()) - since;
      if (Date.now() > deadline) {
        const stuck = this.names.filter((n) => !firstGood.has(n));
        const last = stuck.map((n) => {
          const s = [...this.samples].reverse().find((x) => x.loop === n);
          return `${n}: ${s ? `${s.status} ${s.code ?? s.verdict ?? ''}` : 'no answer'}`;
        });
        throw new Error(`not recovered ${withinMs} ms after ${new Date(since).toISOString()}: ${last.join('; ')}`);
      }
      await sleep(100);
    }
  }

  private async run(loop: StreamLoop): Promise<void> {
    while (this.running) {
      this.samples.push(await this.send(loop));
      await sleep(this.options.pauseMs ?? 50);
    }
  }

  private async send(loop: StreamLoop): Promise<Sample> {
    const sentAt = Date.now();
    const base = { loop: loop.name, kind: loop.kind, expects: loop.expects, sentAt };
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.baseUrl}${loop.path}`, {
        method: loop.method,
        headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json', ...loop.headers },
        body: JSON.stringify(loop.body()),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
      text = await res.text();
    } catch (err) {
      const e = err as { name?: string; cause?: { code?: string }; message?: string };
      return { ...base, answeredAt: Date.now(), status: 0, code: e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message ?? 'error') };
    }
    const answeredAt = Date.now();
    let body: Record<string, any> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, any>) : {};
    } catch {
      return { ...base, answeredAt, status: res.status, code: 'not_json' };
    }
    if (loop.kind === 'decision' && body['decision']) {
      return { ...base, answeredAt, status: res.status, id: body['decision']['decision_id'], verdict: body['decision']['kind'] };
    }
    if (loop.kind === 'evaluation' && typeof body['intent_event_id'] === 'string') {
      return { ...base, answeredAt, status: res.status, id: body['intent_event_id'], verdict: body['outcome'] };
    }
    return { ...base, answeredAt, status: res.status, code: typeof body['code'] === 'string' ? body['code'] : undefined };
  }
}

/**
 * Loops of a drill: `decision` calls the mandate path (POST /v1/mcp-proxy/call) with `operation`
 * on crm://contacts/1, `evaluation` evaluates `tool` on the legacy path; every request carries a
 * fresh argument, so no two are the same call.
 */
export function drillLoops(mandate: { credential: string; actor: string; promptId: string }) {
  let n = 0;
  return {
    decision: (name: string, expects: string, operation: string): StreamLoop => ({
      name,
      kind: 'decision',
      expects,
      method: 'POST',
      path: '/v1/mcp-proxy/call',
      headers: { 'x-service-mandate': mandate.credential },
      body: () => ({
        action: { surface: 'sdk', operation, arguments: { n: ++n }, target_resource: 'crm://contacts/1' },
        context: { actor: mandate.actor, prompt_id: mandate.promptId },
        audience: 'crm-api',
      }),
    }),
    evaluation: (name: string, tool: string): StreamLoop => ({
      name,
      kind: 'evaluation',
      expects: 'allowed',
      method: 'POST',
      path: '/v1/intent/evaluate',
      body: () => ({ tool_call: { name: tool, arguments: { account: `acme-${++n}` } } }),
    }),
  };
}

/** The answer this loop exists to get (an allow, a deny, an approval, an `allowed` evaluation). */
export function isExpected(s: Sample): boolean {
  return s.verdict === s.expects && s.id !== undefined;
}

/** 503 `unavailable`: the only acceptable answer while something a route needs is missing. */
export function isUnavailable(s: Sample): boolean {
  return s.status === 503 && s.code === 'unavailable';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
