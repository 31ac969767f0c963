import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/**
 * The architecture rules are lint rules; this proves they bite. Each case lints a snippet as if it
 * were a file at that path and expects the named rule to reject it.
 */
const root = resolve(__dirname, '../..');

const cases = {
  serviceToService: ['libs/policy-registry/src/adapters/http/x.ts', "import { GatewayConfig } from '@igw/api-gateway';\nexport const x = GatewayConfig;\n"],
  domainNest: ['libs/api-gateway/src/domain/x.ts', "import { Injectable } from '@nestjs/common';\nexport const y = Injectable;\n"],
  domainPg: ['libs/api-gateway/src/domain/x.ts', "import { Pool } from 'pg';\nexport const y = Pool;\n"],
  domainOuter: ['libs/api-gateway/src/domain/x.ts', "import { x } from '../application/x';\nexport const y = x;\n"],
  domainIo: ['libs/api-gateway/src/domain/x.ts', "import { readFileSync } from 'node:fs';\nexport const y = readFileSync;\n"],
  domainContracts: ['libs/decision-proxy/src/domain/x.ts', "import { REVIEW_STATUSES } from '@igw/contracts';\nexport const y = REVIEW_STATUSES;\n"],
  domainContractsType: ['libs/intent-evaluator/src/domain/sub/x.ts', "import type { IntentClass } from '@igw/contracts';\nexport type Y = IntentClass;\n"],
  domainSwagger: ['libs/mandate-issuer/src/domain/x.ts', "import { ApiProperty } from '@nestjs/swagger';\nexport const y = ApiProperty;\n"],
  domainValidator: ['libs/approvals/src/domain/x.ts', "import { IsString } from 'class-validator';\nexport const y = IsString;\n"],
  domainTransformer: [
    'libs/webhook-dispatcher/src/domain/x.spec.ts',
    "import { plainToInstance } from 'class-transformer';\nexport const y = plainToInstance;\n",
  ],
  domainKernel: ['libs/decision-proxy/src/domain/x.ts', "import { REVIEW_STATUSES } from '@igw/kernel';\nexport const y = REVIEW_STATUSES;\n"],
  appRedis: ['libs/api-gateway/src/application/use-cases/x.ts', "import Redis from 'ioredis';\nexport const y = Redis;\n"],
  appPrisma: ['libs/api-gateway/src/application/use-cases/x.ts', "import { PrismaClient } from '@prisma/client';\nexport const y = PrismaClient;\n"],
  appAdapter: ['libs/api-gateway/src/application/use-cases/x.ts', "import { x } from '../../adapters/x';\nexport const y = x;\n"],
  sharedToService: ['libs/shared/http/src/x.ts', "import { PolicyRegistryModule } from '@igw/policy-registry';\nexport const x = PolicyRegistryModule;\n"],
  adapterRedis: ['libs/api-gateway/src/adapters/redis/x.ts', "import Redis from 'ioredis';\nexport const x = Redis;\n"],
  sdkToKernel: ['libs/sdk/src/x.ts', "import { newId } from '@igw/kernel';\nexport const x = newId;\n"],
  sdkToContracts: ['libs/sdk/src/x.ts', "import type { ErrorDto } from '@igw/contracts';\nexport type X = ErrorDto;\n"],
  cliToService: ['apps/cli/src/x.ts', "import { GatewayConfig } from '@igw/api-gateway';\nexport const x = GatewayConfig;\n"],
  cliToKernel: ['apps/cli/src/x.ts', "import { newId } from '@igw/kernel';\nexport const x = newId;\n"],
  cliToSdk: ['apps/cli/src/x.ts', "import { GatewayClient } from '@igw/sdk';\nexport const x = GatewayClient;\n"],
  appToSdk: ['apps/embedded/src/x.ts', "import { GatewayClient } from '@igw/sdk';\nexport const x = GatewayClient;\n"],
  appNest: [
    'libs/api-gateway/src/application/x.ts',
    "import { Injectable } from '@nestjs/common';\nimport { newId } from '@igw/kernel';\nexport const x = [Injectable, newId];\n",
  ],
} as const;

describe('architecture lint rules', () => {
  const hits: Record<string, string> = {};

  beforeAll(() => {
    // @nx/enforce-module-boundaries needs Nx's project graph (tools/scripts/lint.mjs does the same).
    execFileSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], {
      cwd: root,
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
      stdio: 'ignore',
    });
    const input = JSON.stringify(Object.values(cases).map(([path, code]) => ({ path, code })));
    const out = JSON.parse(execFileSync(process.execPath, [join(root, 'tools/lint/lint-snippets.mjs')], { cwd: root, input, encoding: 'utf8' })) as string[][];
    Object.keys(cases).forEach((name, i) => (hits[name] = out[i]!.join('\n')));
  }, 120_000);

  it('a service may not import another service', () => {
    expect(hits.serviceToService).toMatch(/@nx\/enforce-module-boundaries: .*type:service/);
  });

  it('domain code imports no framework, infrastructure, I/O or outer layer', () => {
    for (const name of ['domainNest', 'domainPg', 'domainOuter', 'domainIo']) expect(hits[name]).toMatch(/no-restricted-imports/);
  });

  it('domain code knows no wire format: no contracts, Swagger or validation, specs included', () => {
    for (const name of ['domainContracts', 'domainContractsType', 'domainSwagger', 'domainValidator', 'domainTransformer'])
      expect(hits[name]).toMatch(/no-restricted-imports/);
    expect(hits.domainContracts).toMatch(/knows no wire format|pure TypeScript/);
  });

  it('application code reaches infrastructure only through ports', () => {
    for (const name of ['appRedis', 'appPrisma', 'appAdapter']) expect(hits[name]).toMatch(/no-restricted-imports/);
  });

  it('shared libraries may not import a service', () => {
    expect(hits.sharedToService).toMatch(/@nx\/enforce-module-boundaries/);
  });

  it('the SDK imports nothing of ours; the CLI only the SDK', () => {
    for (const name of ['sdkToKernel', 'sdkToContracts', 'cliToService', 'cliToKernel']) expect(hits[name]).toMatch(/@nx\/enforce-module-boundaries/);
  });

  it('allows what the architecture allows', () => {
    expect(hits.cliToSdk).toBe('');
    expect(hits.appToSdk).toBe('');
    expect(hits.adapterRedis).toBe('');
    expect(hits.appNest).toBe('');
    expect(hits.domainKernel).toBe('');
  });
});
