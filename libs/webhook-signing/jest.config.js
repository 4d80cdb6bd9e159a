const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'webhook-signing',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // `jose` (devDependency, the tests' independent JWT verifier) ships ES modules only:
  // let SWC turn it into CommonJS for Jest.
  transform: {
    ...preset.transform,
    '^.+/node_modules/jose/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
};
