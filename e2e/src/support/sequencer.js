// The e2e files run one at a time, in the order of their names, so every run has the same order and
// a failure that depends on what an earlier file did (a crash test replacing a shared app) comes
// back on the next run. published-messages.e2e.ts runs last: it reads back every message the run
// produced, so it must come when the others are done producing.
'use strict';
const Sequencer = require('@jest/test-sequencer').default;

const LAST = 'published-messages.e2e.ts';

class ByNameReadBackLast extends Sequencer {
  async sort(tests) {
    const byName = [...tests].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return [...byName.filter((t) => !t.path.endsWith(LAST)), ...byName.filter((t) => t.path.endsWith(LAST))];
  }
}

module.exports = ByNameReadBackLast;
