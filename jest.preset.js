// Shared Jest settings: SWC transpiles TypeScript (with Nest's decorator metadata),
// tsconfig path aliases resolve to the libraries' sources.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace('/', '\\/')}$`,
    path.join(__dirname, target),
  ]),
);

module.exports = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
    // `jose` (devDependency, the tests' independent JWT checker) ships ES modules only: SWC turns
    // it into CommonJS for Jest.
    '^.+/node_modules/jose/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  moduleNameMapper,
  testTimeout: 60_000,
};
