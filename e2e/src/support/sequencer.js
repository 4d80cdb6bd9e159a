// The e2e files run one at a time, in the order of their names, so every run has the same order and
// a failure that depends on what an earlier file did (a crash test replacing a shared app) comes
// back on the next run; a file waiting for a tool built from Go source runs after the others.
// published-messages.e2e.ts runs last: it reads back every message the run produced, so it must
// come when the others are done producing.
'use strict';
const ByNameToolWaitersLast = require('../../../tools/test/sequencer.js');

class ReadBackLast extends ByNameToolWaitersLast {
  runLast = ['published-messages.e2e.ts'];
}

module.exports = ReadBackLast;
