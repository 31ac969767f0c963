// Integration tests: real PostgreSQL, Redis and Kafka. globalSetup reaches them or starts
// them (Kafka from Maven Central) and fails the run when one cannot be had.
module.exports = {
  ...require('./jest.preset.js'),
  displayName: 'int',
  testMatch: ['<rootDir>/libs/**/*.int-spec.ts', '<rootDir>/apps/**/*.int-spec.ts', '<rootDir>/tools/**/*.int-spec.ts'],
  globalSetup: '<rootDir>/libs/shared/testing/src/jest/global-setup.js',
  globalTeardown: '<rootDir>/libs/shared/testing/src/jest/global-teardown.js',
  testTimeout: 120000,
  maxWorkers: 1,
};
