// Drives a real embedded gateway (built, started as a process, PGlite) through its public API to
// measure the fail-safe figures of DESIGN 6.15: one org per set and split for the cold run, and a
// fresh one for the taught run, where an operator works half of the calls (approve or deny with
// `remember`, examples from the history) and the other half is measured.
import { client, startEmbeddedSystem, type Client } from '@igw/testing';
import { failSafeFigures, halfOf, operatorAction, type Answered, type FailSafeFigures } from './fail-safe-eval';
import type { EvalCase, EvalSet } from './intent-eval';

export interface FailSafeReport {
  set: string;
  split: 'dev' | 'test';
  cold: FailSafeFigures;
  taught: FailSafeFigures;
  /** Operator actions taken in the taught run, by kind. */
  worked: Record<string, number>;
}

interface Org {
  admin: Client;
  agent: Client;
  ids: Map<string, string>;
}

async function must<T>(what: string, res: Promise<{ status: number; body: T; text: string }>, ok = [200, 201, 204]): Promise<T> {
  const r = await res;
  if (!ok.includes(r.status)) throw new Error(`${what}: HTTP ${r.status} ${r.text.slice(0, 300)}`);
  return r.body;
}

async function newOrg(url: string, platformKey: string, name: string, set: EvalSet): Promise<Org> {
  const created = await must('create org', client(url, platformKey).post('/v1/orgs', { name }));
  const admin = client(url, (created as { api_key: { key: string } }).api_key.key);
  const agentKey = await must('mint agent key', admin.post('/v1/api-keys', { name: 'agent', scope: 'policy_write' }));
  const agent = client(url, (agentKey as { key: string }).key);
  const ids = new Map<string, string>();
  for (const i of set.intentions) {
    const body = {
      label: i.label,
      display_name: i.display_name,
      description: i.description,
      intent_class: i.intent_class,
      approval_required: (i as { approval_required?: boolean }).approval_required ?? false,
      data_elements: i.data_elements,
    };
    const made = (await must(`create ${i.label}`, admin.post('/v1/intentions', body))) as { id: string };
    ids.set(i.label, made.id);
    if (i.status !== 'draft') await must(`publish ${i.label}`, admin.post(`/v1/intentions/${made.id}/publish`));
    if (i.status === 'archived') await must(`archive ${i.label}`, admin.post(`/v1/intentions/${made.id}/archive`));
  }
  return { admin, agent, ids };
}

const callOf = (c: EvalCase) => ({
  tool_call: { name: c.tool_call.name, arguments: c.tool_call.arguments ?? {} },
  ...(c.conversation_context ? { conversation_context: c.conversation_context } : {}),
  user_id: 'eval-agent',
});

interface Evaluation {
  intent_event_id: string;
  outcome: string;
  intent_label: string;
  reason: string | null;
  approval_request_id: string | null;
  classification_evidence: { classification_method: string };
}

async function evaluate(org: Org, c: EvalCase): Promise<Evaluation> {
  return (await must(`evaluate ${c.id}`, org.agent.post('/v1/intent/evaluate', callOf(c)))) as Evaluation;
}

const answered = (c: EvalCase, e: Evaluation): Answered => ({
  c,
  outcome: e.outcome,
  label: e.intent_label,
  reason: e.reason,
  method: e.classification_evidence.classification_method,
});

type KeptCall = { tool_call: unknown; conversation_context?: unknown };

/** The call as the gateway kept it, read from history as the console's "Teach" reads it (include=call). */
async function historyCall(org: Org, c: EvalCase, eventId: string): Promise<KeptCall> {
  // The eval is sequential, so the evaluation just made is on the first page.
  const page = (await must(`history ${c.id}`, org.admin.get('/v1/intent/history?limit=5&include=call'))) as { data: { id: string; call: KeptCall | null }[] };
  const call = page.data.find((e) => e.id === eventId)?.call;
  if (!call) throw new Error(`history ${c.id}: evaluation ${eventId} has no kept call`);
  return call;
}

async function teach(org: Org, c: EvalCase, call: KeptCall, label: string, covered: boolean): Promise<void> {
  const id = org.ids.get(label);
  if (id === undefined) return;
  await must(`example ${c.id}`, org.admin.post(`/v1/intentions/${id}/examples`, { ...call, covered }), [201, 409]);
}

async function work(org: Org, c: EvalCase, worked: Record<string, number>): Promise<void> {
  const e = await evaluate(org, c);
  const action = operatorAction(c.expected_label, { outcome: e.outcome, label: e.intent_label, reason: e.reason, approvalId: e.approval_request_id });
  worked[action.kind] = (worked[action.kind] ?? 0) + 1;
  switch (action.kind) {
    case 'approve':
      await must(
        `approve ${c.id}`,
        org.admin.post(`/v1/approvals/${action.approvalId}/approve`, { remember: true, ...(action.intentLabel ? { intent_label: action.intentLabel } : {}) }),
        [200, 404, 409],
      );
      return;
    case 'deny':
      await must(`deny ${c.id}`, org.admin.post(`/v1/approvals/${action.approvalId}/deny`, { remember: true }), [200, 409]);
      if (action.thenExample) await teach(org, c, await historyCall(org, c, e.intent_event_id), action.thenExample, true);
      return;
    case 'examples': {
      // Taught from the history row, with the call the gateway kept.
      const call = await historyCall(org, c, e.intent_event_id);
      if (action.negative) await teach(org, c, call, action.negative, false);
      if (action.positive) await teach(org, c, call, action.positive, true);
      return;
    }
    case 'none':
      return;
  }
}

/** Cold and taught figures per set and split. The gateway is started here and stopped before returning. */
export async function runFailSafe(sets: readonly { name: string; set: EvalSet }[], splits: readonly ('dev' | 'test')[]): Promise<FailSafeReport[]> {
  const sys = await startEmbeddedSystem({ env: { RATE_LIMIT_RPS: '100000', RATE_LIMIT_BURST: '200000', LOG_LEVEL: 'warn' } });
  try {
    const reports: FailSafeReport[] = [];
    for (const { name, set } of sets) {
      for (const split of splits) {
        const cases = set.cases.filter((c) => c.split === split);
        if (cases.length === 0) continue;
        const cold = await newOrg(sys.url, sys.platformKey, `eval-${name}-${split}-cold`, set);
        const coldAnswers: Answered[] = [];
        for (const c of cases) coldAnswers.push(answered(c, await evaluate(cold, c)));

        const taught = await newOrg(sys.url, sys.platformKey, `eval-${name}-${split}-taught`, set);
        const worked: Record<string, number> = {};
        for (const c of cases.filter((x) => halfOf(x.id) === 'worked')) await work(taught, c, worked);
        const measured: Answered[] = [];
        for (const c of cases.filter((x) => halfOf(x.id) === 'measured')) measured.push(answered(c, await evaluate(taught, c)));
        reports.push({ set: name, split, cold: failSafeFigures(coldAnswers), taught: failSafeFigures(measured), worked });
      }
    }
    return reports;
  } finally {
    await sys.stop();
  }
}
