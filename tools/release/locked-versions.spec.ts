import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gte } from 'semver';

const ROOT = join(__dirname, '..', '..');

interface Advisory {
  id: string;
  package: string;
  fixed: string;
}

interface LockedPackage {
  version?: string;
  dev?: boolean;
}

const { advisories } = JSON.parse(readFileSync(join(ROOT, 'docs', 'security', 'fixed-versions.json'), 'utf8')) as { advisories: Advisory[] };
const locked = (JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> }).packages;

/** Every copy of a package the lock installs for production (`npm ci --omit=dev`, the images), wherever it nests. */
function runtimeCopies(name: string): { path: string; version: string }[] {
  return Object.entries(locked)
    .filter(([path, entry]) => path.endsWith(`node_modules/${name}`) && !entry.dev && entry.version)
    .map(([path, entry]) => ({ path, version: entry.version as string }));
}

// The registry's audit endpoint does not answer on our machines: this is the check we can run.
describe('runtime dependencies with published advisories (docs/security/fixed-versions.json)', () => {
  it.each(advisories.map((a) => [a.id, a] as const))('%s: every locked copy is at or above the fixed version', (_id, advisory) => {
    const copies = runtimeCopies(advisory.package);
    expect(copies.length).toBeGreaterThan(0); // a misspelt package name would otherwise pass
    expect(copies.filter(({ version }) => !gte(version, advisory.fixed))).toEqual([]);
  });
});
