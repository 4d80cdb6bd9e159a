/**
 * The service kit's folders depend one way: `bootstrap/` (starting a service) uses `logging/`,
 * `observability/` and `kafka/`; `ops/` (the management server) uses `observability/`;
 * `logging/` and `grpc/` use `observability/` (request ids, probe paths, metrics); `config/` composes the settings of `kafka/` and `grpc/`; the
 * errors every folder may throw (`config-error.ts`) sit at the library's root, below them all.
 * The `index.ts` and `testing.ts` files only gather exports for the library's users.
 */
import { folderCycles, folderGraph } from './testing';

describe("the service kit's folders", () => {
  it('import each other one way only: no cycle between folders', () => {
    const graph = folderGraph(__dirname, { besides: /^(index|testing)\.ts$/ });
    expect(graph.get('bootstrap')).toContain('observability'); // the graph is read at all
    expect(folderCycles(graph)).toEqual([]);
  });
});
