module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'tools',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.spec.ts'],
  testSequencer: '<rootDir>/test/sequencer.js',
};
