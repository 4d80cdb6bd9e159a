/**
 * The production dependencies package-lock.json installs and the advisories known for them, offline:
 * `docs/security/advisories.json` holds the registry's answer for every production copy (written by
 * `npm run advisories:refresh`), `docs/security/fixed-versions.json` the ones added by hand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gte, satisfies } from 'semver';

export const ROOT = join(__dirname, '..', '..');
export const ADVISORIES_FILE = join(ROOT, 'docs', 'security', 'advisories.json');
const FIXED_VERSIONS_FILE = join(ROOT, 'docs', 'security', 'fixed-versions.json');

/** An advisory as npm's bulk advisory endpoint answers it (the fields kept). */
export interface RegistryAdvisory {
  id: number | string;
  title: string;
  url: string;
  severity: string;
  vulnerable_versions: string;
}

export interface AdvisoriesFile {
  about: string;
  source: string;
  /** When the registry last answered; null: never refreshed on a machine that reaches it. */
  refreshedAt: string | null;
  /** Package name → the advisories the registry knows for the versions asked about. */
  advisories: Record<string, RegistryAdvisory[]>;
}

interface HandAdvisory {
  id: string;
  package: string;
  fixed: string;
}

export interface InstalledCopy {
  name: string;
  path: string;
  version: string;
}

/** Every copy the lock installs for production (`npm ci --omit=dev`, the images), wherever it nests. */
export function productionCopies(lockText = readFileSync(join(ROOT, 'package-lock.json'), 'utf8')): InstalledCopy[] {
  const { packages } = JSON.parse(lockText) as { packages: Record<string, { version?: string; dev?: boolean; link?: boolean; name?: string }> };
  return Object.entries(packages)
    .filter(([path, entry]) => path.includes('node_modules/') && !entry.dev && !entry.link && entry.version)
    .map(([path, entry]) => ({ name: entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), path, version: entry.version as string }));
}

/** Each copy's advisories whose vulnerable range holds its version: registry and hand-added alike. */
export function vulnerableCopies(copies: InstalledCopy[], registry: AdvisoriesFile, hand: HandAdvisory[] = handAdvisories()): string[] {
  const found: string[] = [];
  for (const copy of copies) {
    for (const a of registry.advisories[copy.name] ?? []) {
      if (satisfies(copy.version, a.vulnerable_versions, { includePrerelease: true })) found.push(`${copy.path}@${copy.version}: ${a.id} ${a.title} (${a.severity}, ${a.vulnerable_versions})`);
    }
    for (const a of hand.filter((h) => h.package === copy.name)) {
      if (!gte(copy.version, a.fixed)) found.push(`${copy.path}@${copy.version}: ${a.id} (fixed in ${a.fixed})`);
    }
  }
  return found;
}

export const readAdvisories = (file = ADVISORIES_FILE): AdvisoriesFile => JSON.parse(readFileSync(file, 'utf8')) as AdvisoriesFile;
export const handAdvisories = (): HandAdvisory[] => (JSON.parse(readFileSync(FIXED_VERSIONS_FILE, 'utf8')) as { advisories: HandAdvisory[] }).advisories;
