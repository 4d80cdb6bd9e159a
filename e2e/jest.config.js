module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e.ts'],
  globalSetup: '<rootDir>/src/support/global-setup.js',
  setupFilesAfterEnv: ['<rootDir>/src/support/venv-waits.ts'],
  globalTeardown: '<rootDir>/src/support/global-teardown.js',
  testSequencer: '<rootDir>/src/support/sequencer.js',
  testTimeout: 120_000,
  // Child processes of crash tests keep pipes open; the teardown has already stopped them.
  forceExit: true,
};
