/**
 * The gateway's folders depend one way (apps/gateway/README.md, "Where things are"): a folder
 * that imports another is never imported back by it, directly or through others. Specs are
 * wiring, not structure, and do not count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

const ROOT = __dirname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The top folder of a path under src/ ('.' for a file directly in it). */
const folderOf = (path: string) => {
  const parts = relative(ROOT, path).split(sep);
  return parts.length > 1 ? parts[0] : '.';
};

function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(ROOT)) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const from = folderOf(file);
      const to = folderOf(normalize(join(dirname(file), specifier)));
      if (from !== to) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Every folder path that leads from `start` back to it. */
function cyclesThrough(graph: Map<string, Set<string>>, start: string): string[] {
  const found: string[] = [];
  const walk = (at: string, path: string[]) => {
    for (const next of graph.get(at) ?? []) {
      if (next === start) found.push([...path, next].join(' → '));
      else if (!path.includes(next)) walk(next, [...path, next]);
    }
  };
  walk(start, [start]);
  return found;
}

describe("the gateway's folders", () => {
  it('import each other one way only: no cycle between folders', () => {
    const graph = folderGraph();
    expect(graph.get('console')).toContain('auth'); // the graph is read at all
    expect([...graph.keys()].flatMap((folder) => cyclesThrough(graph, folder))).toEqual([]);
  });
});
