/**
 * The gateway's folders depend one way (apps/gateway/README.md, "Where things are"): a folder
 * that imports another is never imported back by it, directly or through others.
 */
import { folderCycles, folderGraph } from '@tailsync/service-kit/testing';

describe("the gateway's folders", () => {
  it('import each other one way only: no cycle between folders', () => {
    const graph = folderGraph(__dirname);
    expect(graph.get('console')).toContain('auth'); // the graph is read at all
    expect(folderCycles(graph)).toEqual([]);
  });
});
