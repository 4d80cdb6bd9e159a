#!/usr/bin/env node
// Nx `test` target of every project: runs Jest for one project and leaves a JSON report
// that tools/test/main.ts sums into the suite's closing `N passed, N failed` line.
'use strict';
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const projectRoot = process.argv[2];
const root = path.join(__dirname, '..', '..');
const reports = process.env.TAILSYNC_TEST_REPORTS ?? path.join(root, '.data', 'test', 'reports');
require('node:fs').mkdirSync(reports, { recursive: true });
const args = [
  require.resolve('jest/bin/jest'),
  '--config', path.join(root, projectRoot, 'jest.config.js'),
  '--passWithNoTests',
  '--json', '--outputFile', path.join(reports, `${projectRoot.replace(/\//g, '__')}.json`),
  ...process.argv.slice(3),
];
const result = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root });
process.exit(result.status ?? 1);
