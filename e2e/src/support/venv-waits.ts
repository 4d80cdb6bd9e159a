import { relative } from 'node:path';
import { venvsReadBy, venvsReady } from '@tailsync/tools/testing';

/**
 * Before an e2e file that runs a Python venv, a wait for that venv alone (npm test installs the
 * venvs beside the suites): the files that run none start at once, and a venv that failed to
 * install fails only the files that need it, with pip's last lines.
 */
const file = expect.getState().testPath!;
const venvs = venvsReadBy(file);
// A first install on a new machine (pip downloads and builds wheels) takes minutes.
if (venvs.length > 0) beforeAll(() => venvsReady(venvs, relative(process.cwd(), file)), 15 * 60_000);
