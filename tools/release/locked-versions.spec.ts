import { productionCopies, readAdvisories, vulnerableCopies, type AdvisoriesFile } from './known-advisories';

// Offline: the registry's answer is kept in docs/security/advisories.json (`npm run advisories:refresh`),
// the advisories added by hand in docs/security/fixed-versions.json.
describe('production dependencies with known advisories (docs/security/advisories.json, fixed-versions.json)', () => {
  const copies = productionCopies();

  it('reads every production copy the lock installs, nested ones too', () => {
    const names = new Set(copies.map((c) => c.name));
    for (const name of ['fastify', 'kafkajs', 'pg', '@nestjs/core']) expect(names).toContain(name);
    expect(copies.every((c) => !c.name.includes('node_modules/'))).toBe(true);
  });

  it('installs no copy in a vulnerable range of any advisory known for it', () => {
    expect(vulnerableCopies(copies, readAdvisories())).toEqual([]);
  });

  it('finds a copy in a vulnerable range, from the registry data or the hand list (the check is not vacuous)', () => {
    const fastify = copies.find((c) => c.name === 'fastify')!;
    const registry: AdvisoriesFile = {
      about: '', source: '', refreshedAt: null,
      advisories: { fastify: [{ id: 1, title: 'planted', url: '', severity: 'high', vulnerable_versions: `<=${fastify.version}` }] },
    };
    expect(vulnerableCopies([fastify], registry, [])).toEqual([expect.stringContaining('planted')]);
    expect(vulnerableCopies([fastify], { ...registry, advisories: {} }, [{ id: 'CVE-planted', package: 'fastify', fixed: '999.0.0' }])).toEqual([expect.stringContaining('CVE-planted')]);
    const other = copies.find((c) => c.name === 'pg')!;
    expect(vulnerableCopies([other], { ...registry, advisories: { pg: [{ id: 2, title: 'pg planted', url: '', severity: 'low', vulnerable_versions: '*' }] } }, [])).toHaveLength(1);
  });
});
