import type { IntentClass } from '@igw/kernel';
import { LexicalIndex } from '@igw/lexical-index';
import { AMBIENT_FEATURES, CANDIDATE_FEATURES, LexicalClassifier, type IntentionDocument } from './index';

const doc = (id: string, label: string, intentClass: IntentClass, description: string, source: string): IntentionDocument => ({
  id,
  label,
  intentClass,
  displayName: '',
  description,
  dataElements: [{ dataSourceId: source, path: 'items.name' }],
});

const index = new LexicalIndex<IntentClass>();
index.upsertMany([
  doc('r', 'infra.secret_read', 'lookup', 'Read a Kubernetes secret in a namespace. Rotating a secret is infra.secret_rotate.', 'k8s'),
  doc('s', 'infra.cluster_status', 'lookup', 'List pods, deployments and nodes of the cluster. Secrets are not covered.', 'k8s'),
  doc('m', 'code.pull_request_merge', 'admin', 'Merge an approved pull request on GitHub.', 'github'),
  doc('q', 'db.readonly_query', 'analysis', 'Run read-only SQL queries against the Supabase database.', 'supabase'),
]);
const classifier = new LexicalClassifier(index);

/** The features of candidate `label` for a call, by name. */
function features(toolName: string, label: string, args?: Record<string, unknown>, chat?: string) {
  const { features: f } = classifier.rank({ toolName, arguments: args, conversationContext: chat ? [{ role: 'user', content: chat }] : undefined });
  const c = f.candidates.find((x) => x.hit.doc.label === label);
  return {
    candidate: c ? Object.fromEntries(CANDIDATE_FEATURES.map((k, i) => [k, c.x[i]])) : undefined,
    ambient: Object.fromEntries(AMBIENT_FEATURES.map((k, i) => [k, f.ambient[i]])),
  };
}

describe('CandidateFeaturizer', () => {
  it('marks a candidate whose description excludes the call: by action and object, or by an object it does not cover', () => {
    expect(features('rotate_secret', 'infra.secret_read').candidate).toMatchObject({ excluded: 1, actionMismatch: 1 });
    expect(features('read_secret', 'infra.secret_read').candidate).toMatchObject({ excluded: 0, actionMismatch: 0 });
    expect(features('list_secrets', 'infra.cluster_status').candidate).toMatchObject({ excluded: 1 });
    expect(features('list_pods', 'infra.cluster_status').candidate).toMatchObject({ excluded: 0, objectHit: 1, objectMiss: 0 });
  });

  it('tells whether a candidate holds what the tool name acts on', () => {
    expect(features('list_nodes', 'infra.cluster_status').candidate).toMatchObject({ objectHit: 1, objectMiss: 0 });
    // Reached through the generic verb alone.
    expect(features('list_nodes', 'infra.secret_read').candidate).toMatchObject({ objectHit: 0, objectMiss: 1, verbOnly: 1 });
    expect(features('kubernetes.read_secret', 'infra.cluster_status').candidate).toMatchObject({ objectHit: 0, objectMiss: 1 });
  });

  it('marks a candidate that does not know the call’s server when another intention does', () => {
    expect(features('supabase.merge_branch', 'code.pull_request_merge').candidate).toMatchObject({ serverMiss: 1 });
    const github = features('github.merge_pull_request', 'code.pull_request_merge').candidate;
    expect(github).toMatchObject({ serverMiss: 0, objectHit: 1 });
    expect(github?.name).toBeGreaterThan(0.5);
    // A server no intention names is a property of the call, weighed on the ambient side.
    expect(features('memory.add_observations', 'code.pull_request_merge').ambient).toMatchObject({ unknownServer: 1, unknownObject: 1 });
  });

  it('treats a tool that takes its action from an SQL argument as naming no object', () => {
    const f = features('execute_sql', 'db.readonly_query', { query: 'SELECT count(*) FROM orders' });
    expect(f.ambient).toMatchObject({ noObject: 1, unknownObject: 0 });
    expect(f.candidate).toMatchObject({ actionMismatch: 0, objectMiss: 0 });
    expect(features('execute_sql', 'db.readonly_query', { query: 'UPDATE orders SET paid = true' }).candidate).toMatchObject({ actionMismatch: 1 });
  });

  it('splits what a candidate explains by where the words came from', () => {
    const { candidate } = features('list_items', 'infra.cluster_status', { namespace: 'prod', kind: 'deployments' }, 'which nodes are down?');
    expect(candidate?.argumentValues).toBeGreaterThan(0);
    expect(candidate?.conversation).toBeGreaterThan(0);
    expect(candidate?.name).toBeLessThan(candidate?.argumentValues ?? 0);
  });

  it('credits a candidate that permits an action the conversation asks for', () => {
    expect(features('pull_request', 'code.pull_request_merge', {}, 'please merge it').candidate).toMatchObject({ contextAction: 1 });
    expect(features('pull_request', 'code.pull_request_merge', {}, 'show me the diff').candidate).toMatchObject({ contextAction: 0 });
  });
});
