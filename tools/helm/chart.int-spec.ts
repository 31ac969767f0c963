import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/**
 * The chart as Helm's own engine renders it (helm-java, tools/helm), checked manifest by manifest
 * and validated against the Kubernetes schemas (kubernetes-models), for the default values and
 * each example values file.
 */
const ROOT = resolve(__dirname, '../..');
const CHART = join(ROOT, 'deploy/helm/intent-gateway');
const EXAMPLES = ['aws', 'gcp', 'azure', 'minimal'].map((n) => join(ROOT, 'deploy/helm/examples', `${n}.yaml`));
type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
};

function helm(args: string[]): { status: number; stdout: string; stderr: string } {
  const res = spawnSync(process.execPath, [join(ROOT, 'tools/helm/helm.mjs'), ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: res.status ?? 1, stdout: res.stdout, stderr: res.stderr };
}

function render(...args: string[]): Manifest[] {
  const res = helm(['template', ...args]);
  if (res.status !== 0) throw new Error(`helm template failed: ${res.stderr}`);
  return parseAllDocuments(res.stdout)
    .map((d) => d.toJSON() as Manifest)
    .filter(Boolean);
}

const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8'));
const APPS = Object.entries(
  values.apps as Record<string, { enabled: boolean; port: number; public?: boolean; serviceUrls?: Record<string, string>; internetEgress?: boolean }>,
);
const of = (ms: Manifest[], kind: string) => ms.filter((m) => m.kind === kind);
const named = (ms: Manifest[], kind: string, app: string) => ms.find((m) => m.kind === kind && m.metadata.name === `igw-intent-gateway-${app}`);
const component = (peer: any) => peer?.podSelector?.matchLabels?.['app.kubernetes.io/component'];

describe('helm chart (rendered by Helm, helm-java)', () => {
  let manifests: Manifest[];
  beforeAll(() => {
    // The full output, hooks included, as `helm template` prints it.
    manifests = render();
  });

  it('lints clean with --strict', () => {
    const res = helm(['lint', '--strict']);
    expect({ status: res.status, errors: res.stdout.split('\n').filter((l) => /\[(ERROR|WARNING)\]/.test(l)) }).toEqual({ status: 0, errors: [] });
  });

  it.each([[[]], ...EXAMPLES.map((f) => [['-f', f]])])('renders valid Kubernetes manifests (values %j)', (args: string[]) => {
    const stream = helm(['template', ...args]).stdout;
    const res = spawnSync(process.execPath, [join(ROOT, 'tools/helm/validate-manifests.mjs')], { input: stream, encoding: 'utf8', cwd: ROOT });
    const report = JSON.parse(res.stdout);
    expect(report.errors).toEqual([]);
    expect(report.documents).toBeGreaterThan(10);
  });

  it('runs every app as a Deployment with probes, resources, a locked-down securityContext and zone/node spread', () => {
    for (const [app, a] of APPS.filter(([, a]) => a.enabled)) {
      const d = named(manifests, 'Deployment', app);
      expect({ app, found: Boolean(d) }).toEqual({ app, found: true });
      const pod = d?.spec.template.spec;
      const c = pod.containers[0];
      expect(c.startupProbe.httpGet).toEqual({ path: '/livez', port: 'http' });
      expect(c.livenessProbe.httpGet).toEqual({ path: '/livez', port: 'http' });
      expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(c.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
      expect(c.resources.limits.memory).toEqual(expect.any(String));
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.topologySpreadConstraints.map((t: any) => t.topologyKey).sort()).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
      expect(d?.spec.strategy.rollingUpdate).toEqual({ maxUnavailable: 0, maxSurge: 1 });
      expect(d?.spec.template.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(a.port),
        'prometheus.io/path': '/metrics',
      });
      // Scratch only: the one emptyDir is /tmp.
      expect(pod.volumes).toEqual([{ name: 'tmp', emptyDir: {} }]);
      expect(c.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
    }
  });

  it('gives every app a Service, an autoscaler that owns the replica count, and a disruption budget', () => {
    for (const [app, a] of APPS.filter(([, a]) => a.enabled)) {
      expect(named(manifests, 'Service', app)?.spec.ports).toEqual([{ name: 'http', port: a.port, targetPort: 'http' }]);
      const hpa = named(manifests, 'HorizontalPodAutoscaler', app);
      expect(hpa?.spec).toMatchObject({ scaleTargetRef: { kind: 'Deployment', name: `igw-intent-gateway-${app}` }, minReplicas: 2 });
      expect(named(manifests, 'Deployment', app)?.spec.replicas).toBeUndefined();
      expect(named(manifests, 'PodDisruptionBudget', app)?.spec.maxUnavailable).toBe(1);
    }
  });

  it('takes secrets only by reference: no Secret, no secret value in values or in the manifests', () => {
    expect(of(manifests, 'Secret')).toEqual([]);
    expect(Object.keys(values.secrets)).toEqual(['existingSecret']);
    for (const m of [...of(manifests, 'Deployment'), ...of(manifests, 'Job')]) {
      const c = m.spec.template.spec.containers[0];
      expect(c.envFrom).toEqual([{ secretRef: { name: 'intent-gateway-secrets' } }]);
      const literal = (c.env ?? []).filter((e: { name: string }) => /KEY|TOKEN|PASSWORD|SECRET|KEK|DATABASE_URL|REDIS_URL/.test(e.name));
      expect({ name: m.metadata.name, literal }).toEqual({ name: m.metadata.name, literal: [] });
    }
    const res = helm(['template', '--set', 'secrets.existingSecret=']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/secrets.existingSecret is required/);
  });

  it('lets only the gateway and each service’s callers in, and lets pods out only to DNS, the datastores and the services they call', () => {
    const policies = of(manifests, 'NetworkPolicy');
    const deny = policies.find((p) => p.metadata.name === 'igw-intent-gateway-default-deny');
    expect(deny?.spec).toEqual({
      podSelector: { matchLabels: { 'app.kubernetes.io/instance': 'igw', 'app.kubernetes.io/part-of': 'intent-gateway' } },
      policyTypes: ['Ingress', 'Egress'],
    });
    for (const [app, a] of APPS.filter(([, a]) => a.enabled)) {
      const p = named(manifests, 'NetworkPolicy', app);
      const callers = APPS.filter(([, c]) => c.enabled && Object.values(c.serviceUrls ?? {}).includes(app)).map(([name]) => name);
      const ingressFrom = p?.spec.ingress.flatMap((r: any) =>
        (r.from ?? [{ anywhere: true }]).map((f: any) => component(f) ?? (f.anywhere ? 'anywhere' : 'metrics')),
      );
      if (a.public) expect(ingressFrom).toEqual(['anywhere', 'metrics']);
      else {
        expect({ app, from: [...new Set(ingressFrom.filter((f: string) => f !== 'metrics'))].sort() }).toEqual({ app, from: callers.sort() });
        expect(callers.length).toBeGreaterThan(0);
      }
      const egress = p?.spec.egress as any[];
      const callees = [...new Set(Object.values(a.serviceUrls ?? {}))].sort();
      expect(
        egress
          .flatMap((r) => r.to.map(component))
          .filter(Boolean)
          .sort(),
      ).toEqual(callees);
      const ports = egress.filter((r) => r.to.some((t: any) => t.ipBlock?.cidr === '10.0.0.0/8')).flatMap((r) => r.ports.map((x: any) => x.port));
      expect(ports.sort((x: number, y: number) => x - y)).toEqual([5432, 6379, 9092, 9094, 9096, 9098]);
      const internet = egress.filter((r) => r.to.some((t: any) => t.ipBlock?.cidr === '0.0.0.0/0'));
      expect({ app, internet: internet.length }).toEqual({ app, internet: a.internetEgress ? 1 : 0 });
      for (const r of internet) expect(r.to[0].ipBlock.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '169.254.0.0/16', '127.0.0.0/8']));
    }
  });

  it('migrates and provisions topics in hook Jobs that run before install and upgrade', () => {
    const jobs = of(manifests, 'Job');
    expect(jobs.map((j) => j.spec.template.spec.containers[0].command)).toEqual([
      ['node', 'dist/apps/kafka-topics/src/main.js'],
      ['node', 'dist/apps/migrate/src/main.js'],
    ]);
    for (const j of jobs) {
      expect(j.spec.template.spec.restartPolicy).toBe('Never');
      expect(j.spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem).toBe(true);
    }
    expect(jobs[0]?.spec.template.spec.containers[0].env).toEqual(
      expect.arrayContaining([
        { name: 'KAFKA_TOPIC_PARTITIONS', value: '6' },
        { name: 'KAFKA_TOPIC_REPLICATION_FACTOR', value: '3' },
      ]),
    );
  });

  it('prints the hook Jobs with their annotations after the release manifest, as `helm template` does', () => {
    const hooks = manifests.filter((m) => m.metadata.annotations?.['helm.sh/hook']);
    expect(hooks.map((h) => [h.kind, h.metadata.name, h.metadata.annotations])).toEqual([
      [
        'Job',
        'igw-intent-gateway-kafka-topics',
        {
          'helm.sh/hook': 'pre-install,pre-upgrade',
          'helm.sh/hook-weight': '-10',
          'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
        },
      ],
      [
        'Job',
        'igw-intent-gateway-migrate',
        {
          'helm.sh/hook': 'pre-install,pre-upgrade',
          'helm.sh/hook-weight': '-5',
          'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
        },
      ],
    ]);
    // Helm prints the hooks last, each under the template it came from.
    expect(manifests.slice(-hooks.length)).toEqual(hooks);
    const stream = helm(['template']).stdout;
    expect(stream.match(/^# Source: .*$/gm)?.slice(-2)).toEqual([
      '# Source: intent-gateway/templates/jobs.yaml',
      '# Source: intent-gateway/templates/jobs.yaml',
    ]);
    // --no-hooks, like Helm's, leaves them out; the rest of the output is the same.
    const noHooks = helm(['template', '--no-hooks']).stdout;
    expect(
      of(
        parseAllDocuments(noHooks).map((d) => d.toJSON() as Manifest),
        'Job',
      ),
    ).toEqual([]);
    expect(stream.startsWith(noHooks.trimEnd())).toBe(true);
    // With jobs.helmHooks=false the Jobs are plain resources, without hook annotations.
    const plain = of(render('--set', 'jobs.helmHooks=false'), 'Job');
    expect(plain.map((j) => [j.metadata.name, j.metadata.annotations])).toEqual([
      ['igw-intent-gateway-kafka-topics', undefined],
      ['igw-intent-gateway-migrate', undefined],
    ]);
  });

  it('purges kept calls past callRetention.days in a CronJob (not a hook), and the evaluator and the proxy then do not', () => {
    const [cron, ...more] = of(manifests, 'CronJob');
    expect(more).toEqual([]);
    expect(cron?.metadata.name).toBe('igw-intent-gateway-purge-calls');
    expect(cron?.metadata.annotations?.['helm.sh/hook']).toBeUndefined();
    expect(cron?.spec).toMatchObject({ schedule: '17 * * * *', concurrencyPolicy: 'Forbid' });
    const pod = cron?.spec.jobTemplate.spec.template.spec;
    const c = pod.containers[0];
    expect(pod.restartPolicy).toBe('Never');
    expect(c.command).toEqual(['node', 'dist/apps/purge-calls/src/main.js']);
    expect(c.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(c.envFrom).toEqual([{ secretRef: { name: 'intent-gateway-secrets' } }]);
    expect(c.env).toEqual(expect.arrayContaining([{ name: 'CALL_RETENTION_DAYS', value: '7' }]));
    for (const app of ['intent-evaluator', 'decision-proxy']) {
      expect(named(manifests, 'Deployment', app)?.spec.template.spec.containers[0].env).toEqual(
        expect.arrayContaining([
          { name: 'CALL_RETENTION_DAYS', value: '7' },
          { name: 'CALL_PURGE_INTERVAL_MINUTES', value: '0' },
        ]),
      );
    }
    // The Jobs' network policy covers its pods: DNS and the datastores only.
    const jobsPolicy = of(manifests, 'NetworkPolicy').find((p) => p.metadata.name === 'igw-intent-gateway-jobs');
    expect(jobsPolicy?.spec.podSelector.matchExpressions[0].values).toContain('purge-calls');
    // Without the CronJob, the evaluator purges in-process; one setting drives both.
    const without = render('--set', 'jobs.purgeCalls.enabled=false', '--set', 'callRetention.days=30');
    expect(of(without, 'CronJob')).toEqual([]);
    for (const app of ['intent-evaluator', 'decision-proxy']) {
      expect(named(without, 'Deployment', app)?.spec.template.spec.containers[0].env).toEqual(
        expect.arrayContaining([
          { name: 'CALL_RETENTION_DAYS', value: '30' },
          { name: 'CALL_PURGE_INTERVAL_MINUTES', value: '60' },
        ]),
      );
    }
  });

  it('publishes only the gateway through an Ingress, and renders a fixed-size install without the optional parts', () => {
    const aws = render('-f', EXAMPLES[0] as string);
    expect(of(aws, 'Ingress').map((i) => i.metadata.name)).toEqual(['igw-intent-gateway-api-gateway']);
    const minimal = render('-f', EXAMPLES[3] as string);
    expect([...new Set(minimal.map((m) => m.kind))].sort()).toEqual(['Deployment', 'Service']);
    expect(named(minimal, 'Deployment', 'api-gateway')?.spec.replicas).toBe(1);
    expect(named(minimal, 'Deployment', 'webhook-dispatcher')).toBeUndefined();
  });

  it('fails to render when a service URL points at a disabled app', () => {
    const res = helm(['template', '--set', 'apps.policy-registry.enabled=false']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/points at "policy-registry", which is not an enabled app/);
  });
});

// Keep the Java tool's build out of the timed tests.
beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'tools/helm/helm.mjs'), 'lint'], { stdio: 'ignore' });
}, 300_000);
