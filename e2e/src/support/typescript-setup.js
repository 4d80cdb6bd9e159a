// Jest resolves the specs' `@tailsync/*` imports with moduleNameMapper, but not those of
// globalSetup/globalTeardown (it loads them with Node's own resolution): the tsconfig path
// aliases are registered for them here.
'use strict';
const path = require('node:path');
const tsconfigPaths = require('tsconfig-paths');
const { compilerOptions } = require('../../../tsconfig.base.json');

tsconfigPaths.register({ baseUrl: path.join(__dirname, '..', '..', '..'), paths: compilerOptions.paths });

/** The default export of a TypeScript module of this folder. */
module.exports = (name) => require(path.join(__dirname, name)).default;
