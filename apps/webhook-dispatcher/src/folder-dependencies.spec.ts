/**
 * The dispatcher's folders depend one way (README, "Where things are"): `interface/` (the gateway's
 * calls) → `intake/` and `scheduling/` → `attempts/` → `delivery-log/` and `subscriptions/` →
 * `signing/`, each never imported back. Each concern's module is built from the settings
 * (`config/`), which are checked by the concerns' pure rules: a concern's `domain/` is a folder of
 * its own (it imports nothing outside it).
 */
import { folderCycles, folderGraph } from '@tailsync/service-kit/testing';

describe("the webhook-dispatcher's folders", () => {
  it('import each other one way only: no cycle between folders', () => {
    const graph = folderGraph(__dirname, { apart: /^domain$/ });
    expect(graph.get('scheduling')).toContain('attempts'); // the graph is read at all
    expect(folderCycles(graph)).toEqual([]);
  });
});
