import nx from '@nx/eslint-plugin';

// Infrastructure packages live only in adapters (and composition roots / shared infra libs).
const INFRA = [
  '@prisma/*',
  'kafkajs',
  'ioredis',
  'pg',
  '@electric-sql/*',
  'pglite-prisma-adapter',
  'undici',
  'fastify',
  '@fastify/*',
  'rate-limiter-flexible',
  'pino',
];
const FRAMEWORK = ['@nestjs/*', 'class-validator', 'class-transformer', 'rxjs', 'reflect-metadata'];
const restrict = (patterns, message) => ({ group: patterns, message });

// Nx tags: apps compose everything; a service never imports another service; shared libs never
// import services; tests may also use the testing lib. The SDK (@igw/sdk) imports nothing of
// ours (only its generated types and npm packages); the CLI imports only the SDK.
const boundaries = (tests) => {
  const t = tests ? ['type:testing'] : [];
  return {
    enforceBuildableLibDependency: false,
    allow: [],
    depConstraints: [
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:service', 'type:infra', 'type:kernel', 'type:contracts', 'type:sdk', ...t] },
      { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:infra', 'type:kernel', 'type:contracts', ...t] },
      { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:infra', 'type:kernel', 'type:contracts', ...t] },
      { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:kernel'] },
      { sourceTag: 'type:kernel', onlyDependOnLibsWithTags: ['type:kernel', ...t] },
      { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:infra', 'type:kernel', 'type:contracts', 'type:testing', 'type:sdk'] },
      { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: [...t] },
      { sourceTag: 'type:cli', onlyDependOnLibsWithTags: ['type:sdk', ...t] },
    ],
  };
};

export default [
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      '.data/**',
      '.infra/**',
      '**/adapters/prisma/generated/**',
      'libs/sdk/src/generated/**',
      'tmp/**',
      'coverage/**',
    ],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries(false)],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-inferrable-types': 'off',
    },
  },
  {
    // The console: plain ES modules run by the browser (no bundler, no TypeScript).
    files: ['apps/console/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'document',
          'location',
          'navigator',
          'sessionStorage',
          'fetch',
          'URLSearchParams',
          'addEventListener',
          'removeEventListener',
          'setInterval',
          'clearInterval',
        ].map((g) => [g, 'readonly']),
      ),
    },
    rules: { 'no-undef': 'error', 'no-unused-vars': 'error', '@typescript-eslint/no-unused-vars': 'off' },
  },
  {
    // Tests and test helpers may be loose with types of HTTP bodies.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/*.fixture.ts', '**/test/**/*.ts', 'libs/shared/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@nx/enforce-module-boundaries': ['error', boundaries(true)],
    },
  },
  {
    // Services: the database, broker and cache clients stay in their adapter folders.
    files: ['libs/*/src/**/*.ts'],
    // The module file is the service's own composition root: it receives the clients.
    ignores: ['libs/shared/**', 'libs/contracts/**', '**/src/adapters/**', '**/src/*.module.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [restrict(['@prisma/*', 'kafkajs', 'ioredis', 'pg'], 'only adapters touch @prisma/client, kafkajs, ioredis or pg')] },
      ],
    },
  },
  {
    // Domain: pure TypeScript. No framework, no infrastructure, nothing from outer layers.
    files: ['libs/**/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            restrict([...INFRA, ...FRAMEWORK, 'node:*'], 'domain code is pure TypeScript: no framework, infrastructure or I/O'),
            // Wire formats (DTOs, event payloads, Swagger, validation) stay outside: vocabularies come from @igw/kernel.
            restrict(
              ['@igw/contracts', '@igw/contracts/*', '@nestjs/swagger', '**/contracts/src/**'],
              'domain code knows no wire format: take vocabularies from @igw/kernel, map DTOs in application or adapters',
            ),
            restrict(['**/application/**', '../application', '**/adapters/**', '../adapters'], 'domain must not import application or adapters'),
          ],
        },
      ],
    },
  },
  {
    // Application: use cases and ports. Frameworks for DI are fine; infrastructure is not.
    files: ['libs/**/src/application/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            restrict(INFRA, 'application code reaches infrastructure only through ports'),
            restrict(['**/adapters/**', '../adapters', '../../adapters'], 'application must not import adapters'),
          ],
        },
      ],
    },
  },
];
