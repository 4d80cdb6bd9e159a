/**
 * Every app's and library's folders depend one way: a folder that imports another is never
 * imported back by it, directly or through others. The apps' and the larger libraries' own
 * `folder-dependencies.spec.ts` say which way theirs go; this one also covers the libraries
 * without one, and any app or library added later.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { folderCycles, folderGraph } from '@tailsync/service-kit/testing';

const REPO = resolve(__dirname, '..', '..');

const projects = ['apps', 'libs'].flatMap((kind) =>
  readdirSync(join(REPO, kind), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(REPO, kind, entry.name, 'src')))
    .map((entry) => `${kind}/${entry.name}`),
);

describe('the folders of every app and library', () => {
  it('are found', () => {
    expect(projects).toEqual(expect.arrayContaining(['apps/gateway', 'apps/tail-sync', 'apps/webhook-dispatcher', 'libs/event-store', 'libs/webhook-signing']));
  });

  it.each(projects)('of %s import each other one way only: no cycle between folders', (project) => {
    // A library's index.ts and testing.ts only gather its folders' exports for its users; a
    // folder's domain/ imports nothing outside it (lint), so it is a folder of its own.
    const graph = folderGraph(join(REPO, project, 'src'), { besides: /^(index|testing)\.ts$/, apart: /^domain$/ });
    expect(folderCycles(graph)).toEqual([]);
  });
});
