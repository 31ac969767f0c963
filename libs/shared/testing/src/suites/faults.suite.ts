import { Kafka, logLevel } from 'kafkajs';
import { Client as PgClient } from 'pg';
import { Topics } from '@igw/contracts';
import type { FaultableSystem } from '../e2e/faultable-system';
import { client, type Client } from '../e2e/http-client';
import { createPublishedIntention, crmCard, dispenseMandate, installCard } from '../e2e/mandate-fixtures';
import { WebhookReceiver } from '../fakes/webhook-receiver.fake-server';
import { drillLoops, isExpected, isUnavailable, RequestStream, type Sample } from '../e2e/request-stream';

/** How long each dependency stays away. */
const OUTAGE_MS = 5000;
/**
 * How long a dependency stays hung (blackhole): longer, since an answer there comes only when a
 * bound runs out (commit 3 s, Redis command 1 s). A loop's request in flight when the hang starts
 * may take two commit bounds (~6 s) to be answered; its next one as long again: the window must
 * hold that whole second request on a loaded machine.
 */
const HANG_MS = 14_000;
/** The stream must get its expected answers back within this of a dependency's return, untouched. */
const RECOVERY_MS = 15_000;
/**
 * A Kafka consumer must be consuming again within this after the broker's return (it may have to
 * rejoin its group, or be replaced by the bus's stall watchdog).
 */
const KAFKA_CONSUMER_RECOVERY_MS = 60_000;
/** The status of each expected answer (DESIGN 6.9; an evaluation is always 200). */
const STATUS_OF: Record<string, number> = { allow: 200, deny: 403, approval: 428, allowed: 200 };

/** The answer the loop exists to get, with its status. */
const served = (s: Sample) => isExpected(s) && s.status === STATUS_OF[s.expects];

interface Phase {
  name: string;
  /** Wholly inside [downFrom, downTo]: the dependency was away for the whole request. */
  downFrom: number;
  downTo: number;
  recoveryMs?: number;
}

/**
 * Issue 11, distributed mode: PostgreSQL, Redis and Kafka each taken away for a while, then the
 * decision-proxy and the intent-evaluator killed (SIGKILL) and restarted, under a steady stream of
 * decisions (allow, deny, approval) and evaluations. Decision routes answer 503 — never an allow —
 * while something they need is away, come back by themselves, never answer 500; and every answer
 * that carried a decision_id or an intent_event_id is in the store afterwards, and on Kafka once
 * the outboxes have drained.
 */
export function describeFaults(start: () => Promise<FaultableSystem>) {
  describe('faults under a steady stream (distributed)', () => {
    let f: FaultableSystem;
    let stream: RequestStream;
    let writer: Client;
    let hook: WebhookReceiver;
    /** A key the stream never uses, so the gateway has not cached it: its first call must read the key store. */
    let coldKey: string;
    let credential: string;
    const phases: Phase[] = [];
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    beforeAll(async () => {
      f = await start();
      const admin = client(f.sys.url, f.sys.adminKey);
      const key = async (name: string, scope: string) => {
        const res = await admin.post('/v1/api-keys', { name, scope });
        expect(res.status).toBe(201);
        return res.body.key as string;
      };
      writer = client(f.sys.url, await key('faults-writer', 'policy_write'));
      // A webhook shows that Kafka consumers (the webhook dispatcher's) work again after the broker's return.
      hook = await WebhookReceiver.start();
      expect((await admin.post('/v1/webhooks', { url: hook.url, events: ['intention.published'] })).status).toBe(201);
      const agentKey = await key('faults-agent', 'read_only');
      coldKey = await key('faults-cold', 'read_only');
      const card = crmCard('faults-card', 'fault drill', [
        { id: 'deny-export', when: 'action.operation == "crm.contacts.export"', decision: { kind: 'deny', reason: 'bulk_export', message: 'no bulk export' } },
        { id: 'approve-refund', when: 'action.operation == "crm.refunds.create"', decision: { kind: 'approval' } },
      ]);
      await installCard(writer, card);
      credential = (await dispenseMandate(writer, { intentId: card.id, actor: 'agent:faults', promptId: 'prm_f' })).credential;
      await createPublishedIntention(writer, {
        label: 'faults.ledger_lookup',
        intent_class: 'lookup',
        display_name: 'Fault drill ledger lookup',
        description: 'Look up a ledger account during the fault drill',
      });

      const { decision, evaluation: evaluating } = drillLoops({ credential, actor: 'agent:faults', promptId: 'prm_f' });
      const evaluation = (name: string) => evaluating(name, 'faults_ledger_lookup');
      stream = new RequestStream(f.sys.url, agentKey, [
        decision('decision-allow-1', 'allow', 'crm.contacts.read'),
        decision('decision-allow-2', 'allow', 'crm.contacts.read'),
        decision('decision-allow-3', 'allow', 'crm.notes.read'),
        decision('decision-allow-4', 'allow', 'crm.notes.read'),
        decision('decision-deny', 'deny', 'crm.contacts.export'),
        decision('decision-approval', 'approval', 'crm.refunds.create'),
        evaluation('evaluation-1'),
        evaluation('evaluation-2'),
      ]);
      stream.start();
    }, 180_000);

    afterAll(async () => {
      await stream?.stop();
      await f?.stop();
      await hook?.close();
    });

    /** Every answer is what its loop expects, or 503 `unavailable`: no 500, no other error, no silence. */
    const expectOnlyExpectedOr503 = (samples: Sample[]) => {
      const wrong = samples.filter((s) => !served(s) && !isUnavailable(s));
      expect(wrong.slice(0, 5)).toEqual([]);
    };
    const of = (samples: Sample[], kind: Sample['kind']) => samples.filter((s) => s.kind === kind);
    /** The dependency was away for the whole of each of these requests: none may be answered but 503. */
    const expectAllUnavailable = (samples: Sample[]) => {
      expect(samples.length).toBeGreaterThan(0);
      expect(samples.filter((s) => !isUnavailable(s)).slice(0, 5)).toEqual([]);
    };
    /** Nothing these requests need was away: every one gets the answer its loop expects. */
    const expectAllServed = (samples: Sample[]) => {
      expect(samples.length).toBeGreaterThan(0);
      expect(samples.filter((s) => !served(s)).slice(0, 5)).toEqual([]);
    };
    const alive = () => {
      for (const p of f.sys.processes) expect({ process: p.name, exitCode: p.child.exitCode }).toEqual({ process: p.name, exitCode: null });
    };

    /** Takes a dependency away for OUTAGE_MS, gives it back, and waits for the stream to recover on its own. */
    async function outage(name: string, take: () => Promise<void> | void, giveBack: () => Promise<void> | void, forMs = OUTAGE_MS): Promise<Sample[]> {
      await take();
      const downFrom = Date.now();
      await sleep(forMs);
      const downTo = Date.now();
      await giveBack();
      const phase: Phase = { name, downFrom, downTo };
      phases.push(phase);
      phase.recoveryMs = await stream.recovered(Date.now(), RECOVERY_MS);
      return stream.within(downFrom, downTo);
    }

    it('baseline: every loop gets what it expects', async () => {
      const since = Date.now();
      await sleep(3000);
      const samples = stream.within(since, Date.now());
      phases.push({ name: 'baseline', downFrom: since, downTo: Date.now() });
      expectAllServed(samples);
      expect(new Set(samples.map((s) => s.loop))).toEqual(new Set(stream.names));
    });

    it('PostgreSQL cut: decisions and evaluations answer 503 (nothing answered unrecorded), then recover', async () => {
      // Both routes commit their record (group commit) before answering: without the database
      // there is nothing to answer but 503.
      const down = await outage(
        'postgres cut',
        () => f.postgres.cut(),
        () => f.postgres.restore(),
      );
      expectAllUnavailable(of(down, 'decision'));
      expectAllUnavailable(of(down, 'evaluation'));
      alive();
    });

    it('PostgreSQL hung (blackhole): decisions and evaluations answer 503 in bounded time, then recover', async () => {
      // A database that accepts and never answers must not hold calls either: the commit times out
      // (the group commit's bound) and the call is answered 503, as for a database that is gone.
      let cold: Promise<{ status: number; code?: string; answeredAt: number }> | undefined;
      const coldCall = () => {
        // The gateway must look this key up in its store, which hangs: that too must end in a 503
        // (the statement bound), whether or not the lookup got a pooled connection that hangs.
        cold = client(f.sys.url, coldKey)
          .post(
            '/v1/mcp-proxy/call',
            {
              action: { surface: 'sdk', operation: 'crm.contacts.read', target_resource: 'crm://contacts/1' },
              context: { actor: 'agent:faults', prompt_id: 'prm_f' },
              audience: 'crm-api',
            },
            { 'x-service-mandate': credential },
          )
          .then((res) => ({ status: res.status, code: res.body?.code, answeredAt: Date.now() }));
      };
      const down = await outage(
        'postgres blackhole',
        () => (f.postgres.blackhole(), coldCall()),
        () => f.postgres.restore(),
        HANG_MS,
      );
      expectAllUnavailable(of(down, 'decision'));
      expectAllUnavailable(of(down, 'evaluation'));
      const phase = phases.find((p) => p.name === 'postgres blackhole')!;
      const answer = await cold!;
      console.log(
        `[faults] a call with a key the gateway had not cached, during the PostgreSQL hang: ${answer.status} ${answer.code ?? ''} after ${answer.answeredAt - phase.downFrom} ms`,
      );
      expect({ ...answer, beforeReturn: answer.answeredAt <= phase.downTo }).toEqual({
        status: 503,
        code: 'unavailable',
        answeredAt: expect.any(Number),
        beforeReturn: true,
      });
      alive();
    });

    it('Redis cut: decisions and evaluations answer 503 (the version board cannot be read), then recover', async () => {
      // Each call reads the org's counters on the version board before trusting its read models:
      // without Redis the models cannot be known current, so the call fails closed.
      const down = await outage(
        'redis cut',
        () => f.redis.cut(),
        () => f.redis.restore(),
      );
      expectAllUnavailable(of(down, 'decision'));
      expectAllUnavailable(of(down, 'evaluation'));
      alive();
    });

    it('Redis hung (blackhole): decisions and evaluations answer 503 in bounded time, then recover', async () => {
      // A board read that gets no answer is bounded and fails closed like a refused one.
      const down = await outage(
        'redis blackhole',
        () => f.redis.blackhole(),
        () => f.redis.restore(),
        HANG_MS,
      );
      expectAllUnavailable(of(down, 'decision'));
      expectAllUnavailable(of(down, 'evaluation'));
      alive();
    });

    it('Kafka stopped: decisions and evaluations go on (their events wait in the outbox)', async () => {
      // Nothing on the call path waits for Kafka: records and their events commit together to
      // PostgreSQL, the relay publishes later; read models are kept exact by the board, not by events.
      const down = await outage(
        'kafka stopped',
        () => f.kafka.stop(),
        () => f.kafka.start(),
      );
      expectAllServed(of(down, 'decision'));
      expectAllServed(of(down, 'evaluation'));
      alive();
      // Consumers reconnect by themselves too: an intention published now reaches the webhook.
      const published = Date.now();
      // Words unlike the stream's tool, so its evaluations keep classifying as before.
      const created = await writer.post('/v1/intentions', {
        label: `probe.webhook_${published}`,
        intent_class: 'lookup',
        description: 'Webhook probe after the broker returned',
      });
      expect(created.status).toBe(201);
      expect((await writer.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
      await hook.waitFor((all) => all.some((w) => w.json?.data?.id === created.body.id), KAFKA_CONSUMER_RECOVERY_MS);
      console.log(`[faults] webhook of an intention published after Kafka's return delivered in ${Date.now() - published} ms`);
    });

    async function killAndRestart(app: string): Promise<Sample[]> {
      await f.sys.stopService(app, 'SIGKILL');
      const downFrom = Date.now();
      // The stream keeps hitting the dead service for a while before it comes back.
      await sleep(1500);
      const downTo = Date.now();
      await f.sys.startService(app);
      const phase: Phase = { name: `${app} killed`, downFrom, downTo };
      phases.push(phase);
      phase.recoveryMs = await stream.recovered(Date.now(), RECOVERY_MS);
      return stream.within(downFrom, downTo);
    }

    it('decision-proxy killed (SIGKILL) and restarted: decisions 503 while it is down, evaluations unaffected', async () => {
      const down = await killAndRestart('decision-proxy');
      expectAllUnavailable(of(down, 'decision'));
      expectAllServed(of(down, 'evaluation'));
      alive();
    });

    it('intent-evaluator killed (SIGKILL) and restarted: evaluations 503 while it is down, decisions unaffected', async () => {
      const down = await killAndRestart('intent-evaluator');
      expectAllUnavailable(of(down, 'evaluation'));
      expectAllServed(of(down, 'decision'));
      alive();
    });

    it('no answer was ever a 500, another error or silence: only what each loop expects, or 503', async () => {
      await sleep(1000);
      await stream.stop();
      expectOnlyExpectedOr503(stream.samples);
      alive();
    });

    it('every answered decision and evaluation is in the store', async () => {
      const decisions = [...new Set(of(stream.samples, 'decision').flatMap((s) => (s.id ? [s.id] : [])))];
      const evaluations = [...new Set(of(stream.samples, 'evaluation').flatMap((s) => (s.id ? [s.id] : [])))];
      // The real server, not the proxy: the store as it is, whatever the test did to the path.
      const pg = new PgClient({ connectionString: f.databaseUrl });
      await pg.connect();
      let foundDecisions: number;
      let foundEvaluations: number;
      try {
        foundDecisions = (
          await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM decision_proxy.decisions WHERE decision_id = ANY($1::text[])', [decisions])
        ).rows[0]!.n;
        foundEvaluations = (
          await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM intent_evaluator.intent_events WHERE id = ANY($1::text[])', [evaluations])
        ).rows[0]!.n;
      } finally {
        await pg.end();
      }
      report(stream.samples, phases, { decisions: [decisions.length, foundDecisions], evaluations: [evaluations.length, foundEvaluations] });
      expect(decisions.length).toBeGreaterThan(0);
      expect(evaluations.length).toBeGreaterThan(0);
      expect(foundDecisions).toBe(decisions.length);
      expect(foundEvaluations).toBe(evaluations.length);
    });

    it('the outboxes drain once Kafka is back: every answered decision and evaluation is on Kafka', async () => {
      const pg = new PgClient({ connectionString: f.databaseUrl });
      await pg.connect();
      const unpublished = async () =>
        (
          await pg.query<{ n: number }>(
            'SELECT (SELECT count(*) FROM decision_proxy.outbox_events WHERE published_at IS NULL) + (SELECT count(*) FROM intent_evaluator.outbox_events WHERE published_at IS NULL) AS n',
          )
        ).rows[0]!.n;
      try {
        const deadline = Date.now() + 60_000;
        let left = Number(await unpublished());
        while (left > 0 && Date.now() < deadline) {
          await sleep(250);
          left = Number(await unpublished());
        }
        expect(left).toBe(0);
      } finally {
        await pg.end();
      }

      const wanted = new Set(stream.samples.flatMap((s) => (s.id ? [s.id] : [])));
      const kafka = new Kafka({ clientId: 'faults-e2e', brokers: [f.kafka.brokers], logLevel: logLevel.NOTHING });
      const consumer = kafka.consumer({ groupId: `faults-e2e-${Date.now()}` });
      await consumer.connect();
      try {
        await consumer.subscribe({ topics: [Topics.DecisionMade.name, Topics.IntentEvaluated.name], fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ message }) => {
            const data = JSON.parse(message.value!.toString()).data as { decision_id?: string; id?: string };
            wanted.delete(data.decision_id ?? data.id ?? '');
          },
        });
        const deadline = Date.now() + 60_000;
        while (wanted.size > 0 && Date.now() < deadline) await sleep(250);
        console.log(`[faults] events missing on Kafka after the drain: ${wanted.size}`);
        expect([...wanted].slice(0, 5)).toEqual([]);
      } finally {
        await consumer.disconnect();
      }
    });
  });
}

/** The numbers of the run, in the test output. */
function report(samples: Sample[], phases: Phase[], found: { decisions: [number, number]; evaluations: [number, number] }): void {
  const lines = ['[faults] stream of the whole run:'];
  for (const kind of ['decision', 'evaluation'] as const) {
    const mine = samples.filter((s) => s.kind === kind);
    const byStatus = new Map<number, number>();
    for (const s of mine) byStatus.set(s.status, (byStatus.get(s.status) ?? 0) + 1);
    lines.push(
      `  ${kind}s sent: ${mine.length}, by status: ${[...byStatus]
        .sort((a, b) => a[0] - b[0])
        .map(([k, v]) => `${k}×${v}`)
        .join(' ')}`,
    );
  }
  lines.push(`  decisions answered with a decision_id: ${found.decisions[0]}, found in decision_proxy.decisions: ${found.decisions[1]}`);
  lines.push(`  evaluations answered with an intent_event_id: ${found.evaluations[0]}, found in intent_evaluator.intent_events: ${found.evaluations[1]}`);
  for (const p of phases) {
    const inside = samples.filter((s) => s.sentAt >= p.downFrom && s.answeredAt <= p.downTo);
    const count = (kind: Sample['kind'], pred: (s: Sample) => boolean) => inside.filter((s) => s.kind === kind && pred(s)).length;
    lines.push(
      `  ${p.name.padEnd(26)} ${((p.downTo - p.downFrom) / 1000).toFixed(1)} s: decisions ${count('decision', () => true)} (503: ${count('decision', isUnavailable)}), ` +
        `evaluations ${count('evaluation', () => true)} (503: ${count('evaluation', isUnavailable)})` +
        `; slowest answer to a request sent meanwhile ${Math.max(0, ...samples.filter((s) => s.sentAt >= p.downFrom && s.sentAt <= p.downTo).map((s) => s.answeredAt - s.sentAt))} ms` +
        (p.recoveryMs !== undefined ? `; every loop served again ${(p.recoveryMs / 1000).toFixed(1)} s after the return` : ''),
    );
  }
  const slowest = Math.max(...samples.map((s) => s.answeredAt - s.sentAt));
  lines.push(`  slowest answer: ${slowest} ms`);
  console.log(lines.join('\n'));
}
