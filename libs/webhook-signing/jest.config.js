const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'webhook-signing',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
