import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { missingOptionalEntries } = require('./complete-lock.js');

describe('package-lock.json', () => {
  it('records every optional dependency, so `npm ci` accepts it on a clean clone (run tools/lock/complete-lock.js after npm install)', () => {
    const lock = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package-lock.json'), 'utf8'));
    expect([...missingOptionalEntries(lock).keys()]).toEqual([]);
  });
});
