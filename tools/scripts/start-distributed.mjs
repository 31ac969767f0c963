// `npm run start:distributed`: every app built so far as its own process, on PostgreSQL, Kafka
// and Redis. Reads DATABASE_URL, KAFKA_BROKERS and REDIS_URL (defaults: the local services that
// `npm run infra:up` provides), shares one generated INTERNAL_AUTH_TOKEN between the processes
// unless one is given, and stops them all together.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const gatewayPort = Number(process.env.PORT ?? 8080);
const env = {
  ...process.env,
  GATEWAY_MODE: 'distributed',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  INTERNAL_AUTH_TOKEN: process.env.INTERNAL_AUTH_TOKEN ?? randomBytes(32).toString('base64url'),
};
// Local runs only: keys generated per start unless given (grants and mandates then do not survive a restart).
env.GRANT_SIGNING_KEY ??= generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
env.MANDATE_KEK ??= randomBytes(32).toString('base64url');
env.WEBHOOK_KEK ??= randomBytes(32).toString('base64url');
env.MCP_UPSTREAMS_KEK ??= randomBytes(32).toString('base64url');

// Services first (gateway last), each on its own port; the gateway learns their URLs.
const services = [
  { app: 'policy-registry', port: Number(process.env.POLICY_REGISTRY_PORT ?? gatewayPort + 1), urlSetting: 'POLICY_REGISTRY_URL' },
  { app: 'approvals', port: Number(process.env.APPROVALS_PORT ?? gatewayPort + 5), urlSetting: 'APPROVALS_URL' },
  { app: 'intent-evaluator', port: Number(process.env.INTENT_EVALUATOR_PORT ?? gatewayPort + 2), urlSetting: 'INTENT_EVALUATOR_URL' },
  { app: 'mandate-issuer', port: Number(process.env.MANDATE_ISSUER_PORT ?? gatewayPort + 3), urlSetting: 'MANDATE_ISSUER_URL' },
  { app: 'decision-proxy', port: Number(process.env.DECISION_PROXY_PORT ?? gatewayPort + 4), urlSetting: 'DECISION_PROXY_URL' },
  { app: 'webhook-dispatcher', port: Number(process.env.WEBHOOK_DISPATCHER_PORT ?? gatewayPort + 6), urlSetting: 'WEBHOOK_DISPATCHER_URL' },
];
// Services that call each other learn each other's URLs too (the evaluator reads the registry and approvals).
for (const s of services) env[s.urlSetting] ??= `http://127.0.0.1:${s.port}`;
const apps = [
  ...services.map((s) => ({ app: s.app, env: { PORT: String(s.port), HOST: '127.0.0.1' } })),
  {
    app: 'api-gateway',
    env: { PORT: String(gatewayPort), ...Object.fromEntries(services.map((s) => [s.urlSetting, process.env[s.urlSetting] ?? `http://127.0.0.1:${s.port}`])) },
  },
];

const children = [];
let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 200).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(() => process.exit(code));
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

for (const { app, env: own } of apps) {
  const child = spawn(process.execPath, [join(root, 'dist/apps', app, 'src/main.js')], { cwd: root, env: { ...env, ...own }, stdio: 'inherit' });
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`start:distributed: ${app} exited (${code}); stopping the others`);
      stopAll(code || 1);
    }
  });
  children.push(child);
}
