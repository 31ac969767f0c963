// Unit tests: beside the code, fake ports, no I/O.
module.exports = {
  ...require('./jest.preset.js'),
  displayName: 'unit',
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'],
};
