// End-to-end tests: the built apps started as real processes, driven over HTTP, in both modes.
module.exports = {
  ...require('./jest.preset.js'),
  displayName: 'e2e',
  testMatch: ['<rootDir>/apps/*/test/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/libs/shared/testing/src/jest/global-setup.js',
  globalTeardown: '<rootDir>/libs/shared/testing/src/jest/global-teardown.js',
  testTimeout: 120000,
  maxWorkers: 1,
};
