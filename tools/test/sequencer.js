// Test files run in the order of their names, so every run has the same order, except that files
// waiting for a tool built from Go source (they call `builtTool(`) run after the others: its
// background build then has the whole suite's time to finish. A subclass may name files to run
// after everything (`runLast`).
'use strict';
const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

const waitsForBuiltTool = (path) => readFileSync(path, 'utf8').includes('builtTool(');

class ByNameToolWaitersLast extends Sequencer {
  /** File names (endings) that run after every other file. */
  runLast = [];

  async sort(tests) {
    const byName = [...tests].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const isLast = (t) => this.runLast.some((name) => t.path.endsWith(name));
    const rest = byName.filter((t) => !isLast(t));
    return [...rest.filter((t) => !waitsForBuiltTool(t.path)), ...rest.filter((t) => waitsForBuiltTool(t.path)), ...byName.filter(isLast)];
  }
}

module.exports = ByNameToolWaitersLast;
