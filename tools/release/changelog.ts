/**
 * CHANGELOG.md (Keep a Changelog) as the release workflow and its checks read it: one `## [x.y.z] -
 * YYYY-MM-DD` section per release, under an `## [Unreleased]` section.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

export interface Release {
  version: string;
  date: string;
  /** The section's text below its heading: the release notes. */
  notes: string;
}

export function readChangelog(file = join(REPO_ROOT, 'CHANGELOG.md')): { unreleased: string | undefined; releases: Release[] } {
  const sections = readFileSync(file, 'utf8')
    .replace(/\n\[[^\]]+\]: \S+/g, '') // the link references at the end
    .split(/^## /m)
    .slice(1);
  const releases: Release[] = [];
  let unreleased: string | undefined;
  for (const section of sections) {
    const [heading, ...body] = section.split('\n');
    const notes = body.join('\n').trim();
    const release = /^\[(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\] - (\d{4}-\d{2}-\d{2})$/.exec(heading.trim());
    if (release) releases.push({ version: release[1], date: release[2], notes });
    else if (heading.trim() === '[Unreleased]') unreleased = notes;
    else throw new Error(`CHANGELOG.md: "## ${heading}" is neither [Unreleased] nor "[x.y.z] - YYYY-MM-DD"`);
  }
  return { unreleased, releases };
}

/** The version package.json gives the checkout: the release it is, or is being prepared as. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}
