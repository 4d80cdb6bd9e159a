import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/**
 * Which top folders of an app's `src/` import which others ('.' is a file directly in `src/`; a
 * subfolder named by `apart` is a folder of its own, as `attempts/domain`).
 */
export type FolderGraph = Map<string, Set<string>>;

function sources(dir: string, besides: RegExp | undefined): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path, besides);
    return entry.name.endsWith('.ts') && !/\.(spec|test-support)\.ts$/.test(entry.name) && !besides?.test(entry.name) ? [path] : [];
  });
}

export interface FolderGraphOptions {
  /** Files that are not structure either, by name: a library's `index.ts` only gathers its folders' exports for its users. */
  besides?: RegExp;
  /**
   * Subfolders of a top folder that count as folders of their own, by name: a concern's pure rules
   * (`domain/`) import nothing outside them, so the settings may use them while the concern's
   * module is built from the settings.
   */
  apart?: RegExp;
}

/**
 * The folders' production imports (relative ones: the only way into another folder of the same
 * app). Specs and test support are wiring, not structure, and do not count.
 */
export function folderGraph(root: string, options: FolderGraphOptions = {}): FolderGraph {
  const folderOf = (path: string) => {
    // An import of a folder (its index.ts) names the folder itself.
    const parts = relative(root, existsSync(path) && statSync(path).isDirectory() ? join(path, 'index.ts') : path).split(sep);
    if (parts.length > 2 && options.apart?.test(parts[1])) return `${parts[0]}/${parts[1]}`;
    return parts.length > 1 ? parts[0] : '.';
  };
  const graph: FolderGraph = new Map();
  for (const file of sources(root, options.besides)) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const from = folderOf(file);
      const to = folderOf(normalize(join(dirname(file), specifier)));
      if (from !== to) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Every path of folders that leads from a folder back to it, as `a → b → a`. */
export function folderCycles(graph: FolderGraph): string[] {
  const found: string[] = [];
  for (const start of graph.keys()) {
    const walk = (at: string, path: string[]) => {
      for (const next of graph.get(at) ?? []) {
        if (next === start) found.push([...path, next].join(' → '));
        else if (!path.includes(next)) walk(next, [...path, next]);
      }
    };
    walk(start, [start]);
  }
  return found;
}
