module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'event-store',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
