/**
 * `node tools/run.js tools/release/release-notes.ts <tag>`: prints the CHANGELOG.md section of the
 * release a `v<version>` tag names (the GitHub release's notes); fails when the tag is not the
 * version package.json carries or the section is missing, so a release cannot ship without notes.
 */
import { packageVersion, readChangelog } from './changelog';

const tag = process.argv[2] ?? '';
const version = tag.replace(/^v/, '');
const release = readChangelog().releases.find((r) => r.version === version);
if (!/^v\d+\.\d+\.\d+/.test(tag) || version !== packageVersion() || !release) {
  process.stderr.write(`release-notes: tag "${tag}" must be v<package.json version> (${packageVersion()}) with a "## [${version}] - date" section in CHANGELOG.md\n`);
  process.exit(1);
}
process.stdout.write(`${release.notes}\n`);
