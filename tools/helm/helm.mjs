#!/usr/bin/env node
// Helm's own engine on this machine: helm-java (Helm's Go library compiled to a native library,
// with a Java API, from Maven Central) renders and lints deploy/helm/intent-gateway.
//
//   npm run helm:template -- [-f values.yaml]... [--set key=value]... [--name R] [--namespace NS]
//   npm run helm:lint
//
// The small Java program (tools/helm/src) is built with Maven on first use and whenever its
// sources or pom change.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const CHART = resolve(here, '../../deploy/helm/intent-gateway');
const JAR = join(here, 'target/igw-helm-1.0.0.jar');

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Builds the Java tool when it is missing or older than its sources. */
export function ensureBuilt() {
  const stale =
    !existsSync(JAR) ||
    !existsSync(join(here, 'target/lib')) ||
    Math.max(newest(join(here, 'src')), statSync(join(here, 'pom.xml')).mtimeMs) > statSync(JAR).mtimeMs;
  if (stale) execFileSync('mvn', ['-q', '-B', '-f', join(here, 'pom.xml'), 'package'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Runs the tool; returns its exit status, stdout and stderr. */
export function helm(args) {
  ensureBuilt();
  const res = spawnSync('java', ['-cp', `${JAR}:${join(here, 'target/lib')}/*`, 'dev.igw.helm.HelmTool', ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: res.status ?? 1, stdout: res.stdout ?? '', stderr: res.stderr ?? '' };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command = 'template', ...rest] = process.argv.slice(2);
  const res = helm([command, CHART, ...rest]);
  process.stdout.write(res.stdout);
  process.stderr.write(res.stderr);
  // exitCode, not exit(): a pipe is written asynchronously, exit() would cut the manifests short.
  process.exitCode = res.status;
}
