import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readCompose } from './compose-check';

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

describe('docker-compose.yml', () => {
  const compose = readCompose();

  it('runs the infrastructure and the three apps, the apps built from the one Dockerfile', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['eventstore', 'gateway', 'kafka', 'postgres', 'tail-sync', 'webhook-dispatcher']);
    for (const app of ['gateway', 'tail-sync', 'webhook-dispatcher']) {
      expect(compose.services[app].build).toEqual({ context: '.', args: { APP: app } });
      expect(existsSync(join(REPO_ROOT, 'apps', app, 'src', 'main.ts'))).toBe(true);
    }
    expect(existsSync(join(REPO_ROOT, 'Dockerfile'))).toBe(true);
    expect(compose.services.eventstore.image).toMatch(/^eventstore\/eventstore:24\./);
    expect(compose.services.kafka.image).toMatch(/^apache\/kafka:3\.9\./);
  });

  it('gives every service a health check and makes every dependency wait for health', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect({ name, healthcheck: Boolean(service.healthcheck?.test) }).toEqual({ name, healthcheck: true });
      const deps = service.depends_on ?? {};
      expect(Array.isArray(deps)).toBe(false);
      for (const [dep, { condition }] of Object.entries(deps)) {
        expect(Object.keys(compose.services)).toContain(dep);
        expect(condition).toBe('service_healthy');
      }
    }
  });
});
