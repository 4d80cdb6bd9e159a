// Runs published-messages.e2e.ts after every other e2e file: it reads back every message the
// run produced, so it must come when the others are done producing.
'use strict';
const Sequencer = require('@jest/test-sequencer').default;

const LAST = 'published-messages.e2e.ts';

class ReadBackLast extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    return [...sorted.filter((t) => !t.path.endsWith(LAST)), ...sorted.filter((t) => t.path.endsWith(LAST))];
  }
}

module.exports = ReadBackLast;
