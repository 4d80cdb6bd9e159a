module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'tail-sync',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
