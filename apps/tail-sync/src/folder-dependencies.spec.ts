/** tail-sync's folders depend one way: `cli/` → the process's wiring (`src/`) → `admin/` → `tails/`, and `config/`; never back. */
import { folderCycles, folderGraph } from '@tailsync/service-kit/testing';

describe("tail-sync's folders", () => {
  it('import each other one way only: no cycle between folders', () => {
    const graph = folderGraph(__dirname);
    expect(graph.get('.')).toContain('tails'); // the graph is read at all
    expect(folderCycles(graph)).toEqual([]);
  });
});
