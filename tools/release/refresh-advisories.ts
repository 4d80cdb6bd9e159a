/**
 * `npm run advisories:refresh`: asks the npm registry (the bulk advisory endpoint `npm audit` uses)
 * which advisories concern the production copies package-lock.json installs, and writes the
 * answer to docs/security/advisories.json, which locked-versions.spec.ts checks offline.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ADVISORIES_FILE, productionCopies, ROOT, type AdvisoriesFile, type RegistryAdvisory } from './known-advisories';

const ABOUT =
  'What the npm registry knows of the production dependencies package-lock.json installs (its bulk advisory endpoint, as npm audit asks it). ' +
  'Written by `npm run advisories:refresh`; tools/release/locked-versions.spec.ts fails when a locked production copy is in a listed vulnerable range.';

export async function refreshAdvisories(registry = process.env.npm_config_registry ?? 'https://registry.npmjs.org/'): Promise<AdvisoriesFile> {
  const asked: Record<string, string[]> = {};
  for (const copy of productionCopies()) asked[copy.name] = [...new Set([...(asked[copy.name] ?? []), copy.version])].sort();
  const source = new URL('-/npm/v1/security/advisories/bulk', registry.endsWith('/') ? registry : `${registry}/`).toString();
  const res = await fetch(source, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(asked), signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw new Error(`${source} answered ${res.status} ${res.statusText}: refresh where the registry's advisory endpoint answers (CI), and commit the file`);
  const answer = (await res.json()) as Record<string, RegistryAdvisory[]>;
  const advisories: AdvisoriesFile['advisories'] = {};
  for (const name of Object.keys(answer).sort()) {
    advisories[name] = answer[name].map(({ id, title, url, severity, vulnerable_versions }) => ({ id, title, url, severity, vulnerable_versions }));
  }
  return { about: ABOUT, source, refreshedAt: new Date().toISOString(), advisories };
}

if (process.argv[1] === __filename) {
  refreshAdvisories().then(
    (file) => {
      writeFileSync(ADVISORIES_FILE, `${JSON.stringify(file, null, 2)}\n`);
      console.log(`wrote ${relative(ROOT, ADVISORIES_FILE)}: ${Object.values(file.advisories).flat().length} advisories for ${productionCopies().length} production copies`);
    },
    (error: unknown) => {
      process.stderr.write(`advisories:refresh: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
