#!/usr/bin/env node
// Runs a TypeScript entry point with tsconfig path aliases and decorator metadata,
// transpiled on the fly by SWC (no separate build step for the local stack and tests).
'use strict';
const path = require('node:path');
process.env.SWC_NODE_PROJECT ??= path.join(__dirname, '..', 'tsconfig.base.json');
require('@swc-node/register');
const entry = process.argv[2];
if (!entry) {
  console.error('usage: node tools/run.js <file.ts> [args...]');
  process.exit(2);
}
process.argv.splice(1, 2, path.resolve(entry));
require(path.resolve(entry));
