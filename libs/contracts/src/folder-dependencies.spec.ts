/**
 * The contracts library's folders depend one way: `webhook-events/` (an event type's schema, entry
 * and topics) → `kafka/` (what every topic's contract is made of) → the shapes in `src/`;
 * `topic-documents/` (every topic, the AsyncAPI document, the published schema files) → both;
 * `grpc/` → the shapes. The `index.ts` files only gather exports for the library's users.
 */
import { folderCycles, folderGraph } from '@tailsync/service-kit/testing';

describe("the contracts library's folders", () => {
  it('import each other one way only: no cycle between folders', () => {
    const graph = folderGraph(__dirname, { besides: /^index\.ts$/ });
    expect(graph.get('webhook-events')).toContain('kafka'); // the graph is read at all
    expect(folderCycles(graph)).toEqual([]);
  });
});
